import Foundation
import GRDB
import Model
import Persistence
import Repositories
import Seed
import Sync
import SyncSQLite
import TestSupport
import Testing

@Suite("SQLite cloud")
struct SQLiteCloudTests {
  func cloudPath() throws -> String {
    try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
  }

  @Test(arguments: TestBackend.allCases)
  func devicesConvergeThroughACloudFile(_ backend: TestBackend) throws {
    let path = try cloudPath()
    let world = try SyncWorld(backend, devices: ["A", "B"], cloud: try SQLiteCloud(path: path))
    _ = try world["A"].library.categories.getOrCreate("Produce")
    _ = try world["B"].library.categories.getOrCreate("PRODUCE")
    _ = try world["B"].library.ingredients.getOrCreate("basil", category: "produce")
    try world.syncUntilQuiet()
    #expect(try world.invariantViolations() == [])
    #expect(try world["A"].library.ingredients.find("basil")?.category == world["A"].library.categories.find("Produce")?.id)
    // A second connection, as another process would open, sees the same log and devices.
    let other = try SQLiteCloud(path: path)
    #expect(try other.latestSequence() == world.cloud.latestSequence())
    #expect(try other.devices().map(\.name) == ["A", "B"])
  }

  @Test func concurrentPushesThroughSeparateConnectionsAreKeptWholeAndOnce() throws {
    let path = try cloudPath()
    let writers = try (0..<4).map { _ in try SQLiteCloud(path: path) }
    let perWriter = 50
    DispatchQueue.concurrentPerform(iterations: writers.count) { writer in
      for index in 0..<perWriter {
        let changes = (0..<5).map { line in
          RecordChange(
            kind: .category, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "w\(writer)",
            sharingScope: .private,
            fields: [
              "displayName": StampedValue(
                value: .text("w\(writer)-b\(index)-l\(line)"), stamp: Stamp(time: 1, counter: 0, replica: "w\(writer)"))
            ]
          )
        }
        let batch = ChangeBatch(id: "w\(writer):\(index)", replica: "w\(writer)", schemaVersion: 3, changes: changes)
        // Each batch is sent twice, as after a lost answer.
        _ = try? writers[writer].push(batch)
        _ = try? writers[writer].push(batch)
      }
    }
    let entries = try writers[0].pull(after: 0, limit: 10_000)
    #expect(entries.count == writers.count * perWriter)
    #expect(entries.map(\.sequence) == Array(1...Int64(entries.count)))
    #expect(Set(entries.map(\.batch.id)).count == entries.count)
    for entry in entries {
      let prefix = entry.batch.id.replacingOccurrences(of: ":", with: "-b")
      #expect(entry.batch.changes.count == 5)
      #expect(entry.batch.changes.allSatisfy { $0.fields["displayName"]?.value.text?.hasPrefix(prefix + "-") == true })
    }
  }

  @Test func pullsArePaged() throws {
    let cloud = try SQLiteCloud(path: try cloudPath())
    for index in 0..<10 { _ = try cloud.push(ChangeBatch(id: "r:\(index)", replica: "r", schemaVersion: 3, changes: [])) }
    #expect(try cloud.pull(after: 0, limit: 4).map(\.sequence) == [1, 2, 3, 4])
    #expect(try cloud.pull(after: 8, limit: 4).map(\.sequence) == [9, 10])
    #expect(try cloud.pull(after: 10, limit: 4).isEmpty)
  }

  /// Another process writes the file: a value of the wrong type there fails the read with
  /// the file's name (GRDB's typed subscripts would trap on it).
  @Test func aValueOfTheWrongTypeInTheFileFailsTheReadAndTrapsNothing() throws {
    let path = try cloudPath()
    let cloud = try SQLiteCloud(path: path)
    try cloud.register(CloudDevice(replicaID: "r1", name: "A", schemaVersion: 3, lastSeen: Fixtures.epoch))
    let batch = ChangeBatch(id: "b1", replica: "r1", schemaVersion: 3, changes: [])
    _ = try cloud.push(batch)
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "UPDATE cloud_devices SET schema_version = 'three'")
      try db.execute(sql: "UPDATE cloud_log SET payload = 42")
    }
    try queue.close()
    for read in [{ _ = try cloud.devices() }, { _ = try cloud.pull(after: 0, limit: 10) }] {
      #expect {
        try read()
      } throws: { error in
        guard case CloudError.unavailable(let location, _) = error else { return false }
        return location.hasSuffix("cloud.sqlite")
      }
    }
  }

  @Test func aFileThatIsNotACloudIsRefused() throws {
    let path = try cloudPath()
    _ = try TestBackend.factory.open("sqlite:\(path)")
    #expect(throws: CloudError.unavailable(location: "sqlite:\(path)", reason: "the file is not a Forager cloud")) {
      _ = try SQLiteCloud(path: path)
    }
  }
}

@Suite("Sync scenario: seeding on every device")
struct SeedingSyncTests {
  @Test(arguments: TestBackend.allCases)
  func seedingTwiceOnTwoDevicesLeavesOneOfEverything(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    for device in world.devices {
      _ = try Seed.defaults(into: device.library)
      _ = try Seed.sample(into: device.library)
      _ = try Seed.sample(into: device.library)
    }
    try world.syncUntilQuiet()
    for device in world.devices {
      let counts = try device.library.counts()
      #expect(counts[.category] == 7)
      #expect(counts[.book] == 3)
      #expect(counts[.recipe] == 8)
      #expect(try device.library.duplicates().isEmpty)
    }
    #expect(try world.invariantViolations() == [])
  }
}
