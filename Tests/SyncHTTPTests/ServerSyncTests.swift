import Foundation
import NIOCore
import NIOPosix
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import TestSupport
import Testing

/// Devices on separate stores sync through `forager-server` over real HTTP on loopback.
// The limit leaves room for a test run whose threads are all busy with other suites'
// blocking work for minutes; a hang still ends the test.
@Suite(.timeLimit(.minutes(10)))
struct ServerSyncTests {
  /// Two devices edit offline, sync through the server, and converge.
  static func checkTwoDevicesConverge(_ storage: any HouseholdStorage) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let phone = try Device(
          "phone", cloud: HTTPCloud(url: url, token: secrets[0], household: "Smith", timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        _ = try phone.library.categories.getOrCreate("Produce")
        _ = try phone.library.categories.getOrCreate("Dairy")
        // Each device reads the server's time to within half a round trip (at most a second,
        // `ServerClock`), so writes made further apart keep their order on the household's
        // clock however loaded the machine is.
        clock.advance(milliseconds: 5_000)
        _ = try laptop.library.categories.getOrCreate("PRODUCE")
        _ = try laptop.library.categories.getOrCreate("Bakery")
        _ = try laptop.library.ingredients.getOrCreate("basil", category: "produce")
        for device in [phone, laptop, phone] { try device.engine.sync() }
        let seen = try phone.view()
        #expect(try laptop.view() == seen)
        // One Produce: the laptop named it later, and the later name wins.
        #expect(seen == ["category Bakery", "category Dairy", "category PRODUCE", "ingredient basil in PRODUCE"])
        #expect(try phone.engine.pendingChangeCount() == 0 && laptop.engine.pendingChangeCount() == 0)
        let registry = try phone.engine.cloud.devices()
        #expect(registry.map(\.name).sorted() == ["laptop", "phone"])
        #expect(try registry.map(\.replicaID).sorted() == [laptop.engine.replicaID(), phone.engine.replicaID()].sorted())
      }
    }
  }

  /// Devices that each call themselves "default" (a session's first device, in two
  /// processes) are listed by the names their household gave them, not the one they share.
  @Test func theRegistryNamesEachDeviceByItsOwnName() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let devices = try secrets.enumerated().map { index, secret in
          try Device("default", cloud: HTTPCloud(url: url, token: secret, timeout: .seconds(10)), clock: clock, seed: UInt64(index + 1))
        }
        for device in devices { try device.engine.sync() }
        let registry = try devices[0].engine.cloud.devices()
        #expect(registry.map(\.name).sorted() == ["laptop", "phone"])
        #expect(try registry.map(\.replicaID).sorted() == devices.map { try $0.engine.replicaID() }.sorted())
      }
    }
  }

  @Test func twoDevicesConvergeThroughTheServer() async throws {
    try await Self.checkTwoDevicesConverge(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func twoDevicesConvergeThroughTheServerOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkTwoDevicesConverge(storage) }
  }

  @Test func aServerThatGoesAwayIsOfflineAndTheNextSyncCatchesUp() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    let (url, port, phone, laptop) = try await withServer(storage) { url, port in
      try await onThread {
        let phone = try Device(
          "phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(60), retry: RetryTests.quick), seed: 1)
        let laptop = try Device(
          "laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(60), retry: RetryTests.quick), seed: 2)
        try phone.engine.sync()
        try laptop.engine.sync()
        return (url, port, phone, laptop)
      }
    }
    // The server is gone: a sync is offline, and the change waits.
    try await onThread {
      _ = try phone.library.categories.getOrCreate("Spices")
      #expect {
        try phone.engine.sync()
      } throws: { error in
        guard case CloudError.unavailable(let location, let reason) = error else { return false }
        return location == url && reason.hasPrefix("cannot reach the server") && reason.hasSuffix("(tried 4 times)")
      }
      #expect(try phone.engine.pendingChangeCount() == 1)
    }
    // Back on the same port: the next sync catches up.
    try await withServer(storage, port: port) { _, _ in
      try await onThread {
        try phone.engine.sync()
        try laptop.engine.sync()
        #expect(try laptop.view() == ["category Spices"])
        #expect(try phone.engine.pendingChangeCount() == 0)
      }
    }
  }

  @Test func anUnreachableServerIsUnavailableWhenOpened() async throws {
    let port = try TemporaryPostgres.freePort()
    #expect {
      _ = try HTTPCloud(
        url: "http://127.0.0.1:\(port)", token: "fgr1_" + String(repeating: "A", count: 43), timeout: .seconds(3), retry: .none)
    } throws: { error in
      guard case CloudError.unavailable(_, let reason) = error else { return false }
      return reason.contains("connection refused")
    }
  }

  @Test func aRevokedTokenIsARefusalNotOffline() async throws {
    let storage = MemoryHouseholdStorage()
    _ = try await Administration(storage: storage).addHousehold("Smith")
    let issued = try await Administration(storage: storage).issueToken(household: "Smith", device: "phone")
    try await withServer(storage) { url, _ in
      let phone = try await onThread {
        try Device("phone", cloud: HTTPCloud(url: url, token: issued.token.secret, household: "Smith"), seed: 1)
      }
      #expect(try await Administration(storage: storage).revokeToken(id: issued.token.id))
      try await onThread {
        _ = try phone.library.categories.getOrCreate("Produce")
        #expect {
          try phone.engine.sync()
        } throws: { error in
          guard case HTTPCloudError.refused(401, "token-revoked", let message) = error else { return false }
          return message.contains(issued.token.id) && !message.contains(issued.token.secret)
        }
      }
      // A token of another household than the one named is refused when opened.
      await #expect(throws: HTTPCloudError.householdMismatch(expected: "Jones", token: "Smith")) {
        let other = try await Administration(storage: storage).issueToken(household: "Smith", device: "tablet")
        _ = try await onThread { try HTTPCloud(url: url, token: other.token.secret, household: "Jones") }
      }
    }
  }

  @Test func aCallOnAnEventLoopThreadIsRefusedInsteadOfBlockingIt() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    try await withServer(storage) { url, _ in
      let cloud = try await onThread { try HTTPCloud(url: url, token: secrets[0]) }
      let result = try await MultiThreadedEventLoopGroup.singleton.next().submit { Result { try cloud.latestSequence() } }.get()
      #expect(throws: CloudError.self) { try result.get() }
      #expect(try await onThread { try cloud.latestSequence() } == 0)
    }
  }
}
