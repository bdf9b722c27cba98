import Foundation

/// One event of the live channel, `GET /v1/live` (Docs/SERVER.md, "Live"): a
/// Server-Sent Events stream (`text/event-stream`) that only ever says where the
/// household's log ends — never a batch's bytes. A device pulls from its own cursor as
/// usual when an event names a sequence past it.
///
/// On the wire each event is `event: <name>` and `data: <json>` lines and a blank line:
///
/// ```text
/// event: sequence
/// data: {"latestSequence":13}
///
/// ```
public enum LiveEvent: Sendable, Hashable {
  /// First on every stream: the log's end when the subscription opened, and the seconds
  /// between heartbeats (a device that hears nothing for about twice that takes the
  /// channel for dropped).
  case hello(latestSequence: Int64, heartbeatSeconds: Int)
  /// A batch committed: the log now ends at this sequence (announcements coalesce: a
  /// slow reader is told the newest end only).
  case sequence(Int64)
  /// Nothing new; the newest end this server knows.
  case heartbeat(latestSequence: Int64)
  /// The server ends the stream (`shutdown`: subscribe again after a moment, to any
  /// instance; `slow-reader`: the device did not read in time).
  case closing(reason: String)

  /// The names events have on the wire, one per case.
  public enum Name: String, Sendable, CaseIterable {
    case hello, sequence, heartbeat, closing
  }

  /// Which event this is.
  public var kind: Name {
    switch self {
    case .hello: .hello
    case .sequence: .sequence
    case .heartbeat: .heartbeat
    case .closing: .closing
    }
  }

  /// The event's name on the wire.
  public var name: String { kind.rawValue }

  /// The sequence the event says the log ends at, if it says one.
  public var latestSequence: Int64? {
    switch self {
    case .hello(let latest, _), .sequence(let latest), .heartbeat(let latest): latest
    case .closing: nil
    }
  }

  /// The event as Server-Sent Events text, ending with its blank line.
  public var text: String {
    let data: String
    switch self {
    case .hello(let latest, let heartbeat): data = #"{"latestSequence":\#(latest),"heartbeatSeconds":\#(heartbeat)}"#
    case .sequence(let latest), .heartbeat(let latest): data = #"{"latestSequence":\#(latest)}"#
    case .closing(let reason): data = #"{"reason":"\#(reason.filter { $0.isLetter || $0 == "-" })"}"#
    }
    return "event: \(name)\ndata: \(data)\n\n"
  }

  /// The event of one `event`/`data` pair; nil for an event name or data this version
  /// does not know (a later server may add events: they are skipped).
  public init?(name: String, data: String) {
    func number(_ key: String) -> Int64? {
      guard let range = data.range(of: "\"\(key)\":") else { return nil }
      let digits = data[range.upperBound...].prefix { $0.isNumber || $0 == "-" }
      return Int64(digits)
    }
    switch name {
    case "hello":
      guard let latest = number("latestSequence"), latest >= 0 else { return nil }
      self = .hello(latestSequence: latest, heartbeatSeconds: Int(clamping: number("heartbeatSeconds") ?? 15))
    case "sequence":
      guard let latest = number("latestSequence"), latest >= 0 else { return nil }
      self = .sequence(latest)
    case "heartbeat":
      guard let latest = number("latestSequence"), latest >= 0 else { return nil }
      self = .heartbeat(latestSequence: latest)
    case "closing":
      guard let range = data.range(of: "\"reason\":\"") else { return nil }
      self = .closing(reason: String(data[range.upperBound...].prefix { $0 != "\"" }.prefix(40)))
    default:
      return nil
    }
  }
}

/// Reads Server-Sent Events from bytes as they arrive, in chunks cut anywhere: lines end
/// at LF (a CR before it is dropped), an event ends at a blank line, `:` lines are
/// comments. A line longer than ``maxLineBytes`` is a protocol error (a server sends short
/// lines only), so a hostile stream cannot make a device hold unbounded bytes.
///
/// ```swift
/// var reader = LiveEventReader()
/// for event in try reader.feed(Array("event: sequence\ndata: {\"latestSequence\":3}\n\n".utf8)) { … }
/// ```
public struct LiveEventReader: Sendable {
  /// The longest line accepted, in bytes.
  public static let maxLineBytes = 4_096

  /// A line past ``LiveEventReader/maxLineBytes``.
  public struct LineTooLong: Error, Sendable, CustomStringConvertible {
    public var description: String { "a line of the live stream is longer than \(LiveEventReader.maxLineBytes) bytes" }
  }

  private var line: [UInt8] = []
  private var name = ""
  private var data = ""

  public init() {}

  /// The events the bytes complete, in order.
  /// - Throws: ``LineTooLong``.
  public mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [LiveEvent] {
    var events: [LiveEvent] = []
    for byte in bytes {
      guard byte == UInt8(ascii: "\n") else {
        guard line.count < Self.maxLineBytes else { throw LineTooLong() }
        line.append(byte)
        continue
      }
      if line.last == UInt8(ascii: "\r") { line.removeLast() }
      let text = String(decoding: line, as: UTF8.self)
      line.removeAll(keepingCapacity: true)
      if text.isEmpty {
        if !name.isEmpty || !data.isEmpty, let event = LiveEvent(name: name.isEmpty ? "message" : name, data: data) {
          events.append(event)
        }
        (name, data) = ("", "")
      } else if text.hasPrefix(":") {
        continue
      } else if let colon = text.firstIndex(of: ":") {
        var value = text[text.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        switch text[..<colon] {
        case "event": name = String(value)
        case "data": data = data.isEmpty ? String(value) : data + "\n" + value
        default: break
        }
      }
    }
    return events
  }
}
