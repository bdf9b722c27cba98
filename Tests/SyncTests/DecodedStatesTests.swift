import Foundation
import Model
import Testing

@testable import Sync

/// The states a sync keeps decoded are found only by the text they are stored as.
@Suite struct DecodedStatesTests {
  static let key = RecordKey(kind: .category, id: UUID(uuidString: "8CA1D7AE-37CA-5E82-8119-0AFB3572C3A3")!)

  static func state(_ name: String) -> RecordState {
    RecordState(
      kind: .category, id: key.id, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
      ownerID: "local", sharingScope: .private,
      registers: ["displayName": StampedValue(value: .text(name), stamp: Stamp(time: 1, counter: 0, replica: "a"))]
    )
  }

  @Test func aStateIsFoundOnlyByTheTextItIsStoredAs() throws {
    let decoded = DecodedStates()
    let produce = Self.state("Produce"), text = StateCoding.encode(produce)
    decoded.note(Self.key, text: text, state: produce)
    #expect(decoded.state(Self.key, text: text) == produce)
    // Written since (by another sync, or rolled back): another text, decoded as usual.
    let other = StateCoding.encode(Self.state("Veg"))
    #expect(decoded.state(Self.key, text: other) == nil)
    #expect(decoded.state(RecordKey(kind: .tag, id: Self.key.id), text: text) == nil)
    decoded.removeAll()
    #expect(decoded.state(Self.key, text: text) == nil)
  }

  /// What is kept is what decoding the text gives, so the push sends the same either way.
  @Test func aKeptStateIsWhatDecodingItsTextGives() throws {
    let produce = Self.state("Produce")
    #expect(StateCoding.decode(StateCoding.encode(produce)) == produce)
  }
}
