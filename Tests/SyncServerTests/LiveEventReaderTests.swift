import SyncWire
import Testing

/// The live stream's events read back from bytes cut anywhere, and what a hostile stream cannot do.
struct LiveEventReaderTests {
  @Test func eventsReadBackWhereverTheBytesAreCut() throws {
    let events: [LiveEvent] = [
      .hello(latestSequence: 3, heartbeatSeconds: 15), .sequence(4), .heartbeat(latestSequence: 4), .closing(reason: "shutdown"),
    ]
    let bytes = Array((": comment\n" + events.map(\.text).joined()).utf8)
    for cut in [1, 2, 7, 64, bytes.count] {
      var reader = LiveEventReader()
      var read: [LiveEvent] = []
      var start = 0
      while start < bytes.count {
        read += try reader.feed(bytes[start..<min(bytes.count, start + cut)])
        start += cut
      }
      #expect(read == events, "cut every \(cut) bytes")
    }
  }

  @Test func unknownEventsAreSkippedAndCarriageReturnsDropped() throws {
    var reader = LiveEventReader()
    let text = "event: later-feature\ndata: {}\n\nevent: sequence\r\ndata: {\"latestSequence\":9}\r\n\r\n"
    #expect(try reader.feed(Array(text.utf8)) == [.sequence(9)])
  }

  @Test func anEndlessLineIsRefused() {
    var reader = LiveEventReader()
    #expect(throws: LiveEventReader.LineTooLong.self) {
      _ = try reader.feed([UInt8](repeating: UInt8(ascii: "a"), count: LiveEventReader.maxLineBytes + 1))
    }
  }
}
