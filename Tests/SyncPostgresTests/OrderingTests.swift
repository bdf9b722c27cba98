import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncWire
import Testing

/// A pull never skips a batch: pushes of one household commit in sequence order.
@Suite struct OrderingTests {
  @Test func theFollowerNoticesASkippedSequence() {
    var follower = LogFollower()
    follower.take([1, 2])
    follower.take([4])  // 3 committed after 4: a device at cursor 4 would never get it
    follower.take([5])
    #expect(follower.skips == ["after 2 came 4"])
    var steady = LogFollower()
    steady.take([1, 2, 3])
    steady.take([])
    steady.take([4])
    #expect(steady.skips.isEmpty)
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func concurrentPushersNeverLetAPullSkipABatch() async throws {
    try await withPostgres { _, storage, _ in
      let pushers = 6, perPusher = 30
      let devices = try await household(storage, devices: (0..<pushers).map { "device-\($0)" })
      let householdID = try #require(devices.values.first).householdID
      let done = Flag()
      async let followed: LogFollower = {
        var follower = LogFollower()
        while true {
          let finished = done.isSet
          let page = try await storage.batches(of: householdID, after: follower.cursor, limit: 7)
          follower.take(page.map(\.sequence))
          if finished && page.isEmpty { return follower }
        }
      }()
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (name, credential) in devices {
          group.addTask {
            for number in 1...perPusher {
              _ = try await storage.append(
                batch("\(name):\(number)", replica: name), from: credential, deviceSequence: Int64(number), now: Date())
            }
          }
        }
        try await group.waitForAll()
      }
      done.set()
      let follower = try await followed
      #expect(follower.skips == [])
      #expect(follower.delivered == Array(1...Int64(pushers * perPusher)))
      #expect(try await storage.latestSequence(of: householdID) == Int64(pushers * perPusher))
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aPushWaitsWhileAnotherHoldsItsHouseholdsLock() async throws {
    try await withPostgres { client, storage, location in
      let phone = try #require(try await household(storage, devices: ["phone"])["phone"])
      let other = try #require(try await household(storage, "Jones", devices: ["phone"])["phone"])
      // A second connection plays a push in progress: it holds Smith's lock, uncommitted.
      let holder = try await PostgresConnection.connect(
        configuration: .init(
          host: location.host, port: location.port, username: location.username, password: nil, database: location.database, tls: .disable),
        id: 1, logger: Logger(label: "holder"))
      try await holder.query("BEGIN", logger: Logger(label: "holder"))
      try await holder.query("SELECT pg_advisory_xact_lock(\(phone.householdID))", logger: Logger(label: "holder"))
      let finished = Flag()
      let push = Task {
        defer { finished.set() }
        return try await storage.append(batch("a:1", replica: "a"), from: phone, deviceSequence: 1, now: Date())
      }
      // Another household's push does not wait.
      #expect(try await storage.append(batch("j:1", replica: "j"), from: other, deviceSequence: 1, now: Date()).sequence == 1)
      try await Task.sleep(for: .milliseconds(400))
      #expect(!finished.isSet)
      #expect(try await storage.batches(of: phone.householdID, after: 0, limit: 10).isEmpty)
      try await holder.query("COMMIT", logger: Logger(label: "holder"))
      #expect(try await push.value == PushReceipt(sequence: 1, deviceSequence: 1, stored: true))
      try await holder.close()
      _ = client
    }
  }
}

/// A flag tasks set and read.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
