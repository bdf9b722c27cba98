import Foundation
import Model
import Persistence
import Repositories
import SyncMemory
import SyncSQLite
import TestSupport
import Testing

@testable import Sync

/// A batch id belongs to its replica. A cloud that holds another replica's batch under the
/// id a device pushes refuses the push (`BatchIDTaken`) instead of answering with that
/// batch's sequence: the device's sync fails loudly and its changes stay on it, to be
/// pushed under another id, instead of being counted as stored and lost.
@Suite("Batch id squatting")
struct BatchIDSquatTests {
  enum CloudKind: String, CaseIterable, CustomStringConvertible {
    case memory, file
    var description: String { rawValue }

    func make() throws -> any CloudStore {
      switch self {
      case .memory: InMemoryCloud(identifier: "squat")
      case .file: try SQLiteCloud(path: TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path)
      }
    }
  }

  @Test(arguments: CloudKind.allCases)
  func aPushUnderAnotherReplicasBatchIDIsRefusedAndItsChangesArePushedLater(_ kind: CloudKind) throws {
    let world = try SyncWorld(.memory, devices: ["A", "B"], cloud: try kind.make(), seed: 3)
    try world.syncUntilQuiet()
    let replicaA = try world["A"].engine.replicaID(), replicaB = try world["B"].engine.replicaID()
    _ = try world["A"].library.categories.getOrCreate("Produce")
    _ = try world["A"].library.categories.getOrCreate("Bakery")
    // A's next batch covers its change log from the start: B pushes that id first.
    let last = try #require(try world["A"].store.changeLog().last?.sequence)
    let squatted = "\(replicaA):1-\(last)"
    let decoy = HostileBatchTests.category("Decoy", at: Fixtures.epoch.millisecondsSince1970, replica: replicaB)
    let before = try world.cloud.latestSequence()
    _ = try world.cloud.push(ChangeBatch(id: squatted, replica: replicaB, schemaVersion: 5, changes: [decoy]))

    let refusal = try #require(throws: BatchIDTaken.self) { try world["A"].engine.sync() }
    #expect(refusal.batchID == squatted && refusal.owner == replicaB && refusal.pusher == replicaA)
    #expect(refusal.description.contains("'\(squatted)' from replica '\(replicaB)'"))
    #expect(try world.cloud.latestSequence() == before + 1)  // the squatter's batch only
    #expect(try world["A"].engine.pendingChangeCount() > 0)

    // A's next write gives its pending batch another id; its earlier changes go with it.
    _ = try world["A"].library.categories.getOrCreate("Dairy")
    try world.syncUntilQuiet()
    #expect(try world.invariantViolations() == [])
    #expect(try world["B"].library.categories.all().map(\.displayName).sorted() == ["Bakery", "Dairy", "Decoy", "Produce"])
    #expect(try world["A"].engine.pendingChangeCount() == 0)
  }

  @Test(arguments: CloudKind.allCases)
  func aRetryOfOnesOwnBatchGetsItsSequenceBack(_ kind: CloudKind) throws {
    let cloud = try kind.make()
    let batch = ChangeBatch(
      id: "r:1-1", replica: "r", schemaVersion: 5,
      changes: [HostileBatchTests.category("Produce", at: Fixtures.epoch.millisecondsSince1970, replica: "r")])
    let first = try cloud.push(batch)
    #expect(try cloud.push(batch) == first)
    #expect(try cloud.latestSequence() == first)
    // The same id from another replica is refused, and writes nothing.
    #expect(throws: BatchIDTaken(location: cloud.location, batchID: "r:1-1", owner: "r", pusher: "s")) {
      try cloud.push(ChangeBatch(id: "r:1-1", replica: "s", schemaVersion: 5, changes: []))
    }
    #expect(try cloud.latestSequence() == first)
  }
}
