import Foundation
import Model
import Persistence
import PersistenceMemory
import Testing

@testable import Sync

/// The states a sync keeps decoded are used only while no one else wrote a state since, and
/// only once the transaction that wrote them committed.
@Suite struct DecodedStatesTests {
  static let key = RecordKey(kind: .category, id: UUID(uuidString: "8CA1D7AE-37CA-5E82-8119-0AFB3572C3A3")!)
  static let other = RecordKey(kind: .category, id: UUID(uuidString: "1C0FFEE0-37CA-5E82-8119-0AFB3572C3A3")!)

  static func state(_ name: String, _ key: RecordKey = key) -> RecordState {
    RecordState(
      kind: key.kind, id: key.id, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
      ownerID: "local", sharingScope: .private,
      registers: ["displayName": StampedValue(value: .text(name), stamp: Stamp(time: 1, counter: 0, replica: "a"))]
    )
  }

  struct Failed: Error {}

  @Test func statesAreHeldWhileTheStoreCountsTheirTransactionLast() throws {
    let decoded = DecodedStates()
    decoded.committing { decoded.note(Self.key, state: Self.state("Produce"), counts: (0, 1)) }
    #expect(decoded.states(whenCountIs: 1) == [Self.key: Self.state("Produce")])
    // Another transaction wrote a state since: nothing held is trusted.
    #expect(decoded.states(whenCountIs: 2) == nil)
    decoded.removeAll()
    #expect(decoded.states(whenCountIs: 1) == nil)
  }

  @Test func aTransactionThatThrowsKeepsNothing() throws {
    let decoded = DecodedStates()
    decoded.committing { decoded.note(Self.key, state: Self.state("Produce"), counts: (0, 1)) }
    #expect(throws: Failed.self) {
      try decoded.committing {
        decoded.note(Self.key, state: Self.state("Veg"), counts: (1, 2))
        throw Failed()
      }
    }
    // The store still counts 1 (rolled back) and holds "Produce".
    #expect(decoded.states(whenCountIs: 1) == [Self.key: Self.state("Produce")])
    #expect(decoded.states(whenCountIs: 2) == nil)
  }

  @Test func statesFromBeforeAnotherWriterAreDropped() throws {
    let decoded = DecodedStates()
    decoded.committing { decoded.note(Self.key, state: Self.state("Produce"), counts: (0, 1)) }
    // Someone else's transaction took the count from 1 to 2; this one goes from 2 to 3.
    decoded.committing { decoded.note(Self.other, state: Self.state("Dairy", Self.other), counts: (2, 3)) }
    #expect(decoded.states(whenCountIs: 3) == [Self.other: Self.state("Dairy", Self.other)])
    // Consecutive transactions of this sync add up.
    decoded.committing { decoded.note(Self.key, state: Self.state("Veg"), counts: (3, 4)) }
    #expect(decoded.states(whenCountIs: 4) == [Self.other: Self.state("Dairy", Self.other), Self.key: Self.state("Veg")])
  }

  /// A transaction that writes more states than are kept leaves none of the earlier ones:
  /// a state it wrote past the limit may be one of them.
  @Test func aTransactionPastTheLimitLeavesNothingStale() throws {
    let decoded = DecodedStates()
    decoded.committing { decoded.note(Self.key, state: Self.state("Produce"), counts: (0, 1)) }
    decoded.committing {
      for index in 0..<DecodedStates.limit {
        let key = RecordKey(
          kind: .category,
          id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index >> 16), UInt8((index >> 8) & 0xFF), UInt8(index & 0xFF), 1)))
        decoded.note(key, state: Self.state("n", key), counts: (1, 2))
      }
      // The store now holds "Veg" for this record; it is not noted.
      decoded.note(Self.key, state: Self.state("Veg"), counts: (1, 2))
    }
    let held = try #require(decoded.states(whenCountIs: 2))
    #expect(held[Self.key] == nil)
    #expect(held.count == DecodedStates.limit)
  }

  /// Through the store: the push's read takes held states while the count is unchanged,
  /// and what the store holds once another writer wrote a state.
  @Test func theReadTakesWhatTheStoreHoldsOnceAnotherWriterWroteAState() throws {
    let store = InMemoryStore()
    let decoded = DecodedStates()
    try decoded.committing {
      try store.write(origin: .sync) { writer in
        let states = try StateStore(writer, decoded: decoded)
        try states.set(Self.state("Produce"))
        try states.flush()
      }
    }
    #expect(try store.read { try $0.states([Self.key], decoded: decoded) } == [Self.key: Self.state("Produce")])
    // Another engine on the same store writes the state (its own DecodedStates).
    try store.write(origin: .sync) { writer in
      let states = try StateStore(writer, decoded: DecodedStates())
      try states.set(Self.state("Veg"))
      try states.flush()
    }
    #expect(try store.read { try $0.states([Self.key], decoded: decoded) } == [Self.key: Self.state("Veg")])
    #expect(try store.read { try $0.syncInteger(ReplicaKeys.stateWrites) } == 2)
  }

  /// What is kept is what decoding the stored text gives, so the push sends the same either way.
  @Test func aKeptStateIsWhatDecodingItsTextGives() throws {
    let produce = Self.state("Produce")
    #expect(StateCoding.decode(StateCoding.encode(produce)) == produce)
  }
}
