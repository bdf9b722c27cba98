import Foundation
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncWire
import TestSupport
import Testing

/// A request that fails for a passing reason is sent again after a delay; a push whose
/// answer was lost is stored once.
// The limit leaves room for a test run whose threads are all busy with other suites'
// blocking work for minutes; a hang still ends the test.
@Suite(.timeLimit(.minutes(10)))
struct RetryTests {
  static let quick = HTTPCloud.RetryPolicy(delays: [.milliseconds(20), .milliseconds(40), .milliseconds(80)])

  @Test func aServerThatAnswers503AFewTimesIsRetriedAndTheSyncGoesThrough() async throws {
    let storage = FlakyStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], retry: Self.quick), seed: 1)
        _ = try phone.library.categories.getOrCreate("Produce")
        storage.fail(reads: 3)
        let report = try phone.engine.sync()
        #expect(report.exported == 1)
        #expect(try phone.engine.pendingChangeCount() == 0)
      }
    }
  }

  @Test func withoutRetriesTheSameOutageIsOffline() async throws {
    let storage = FlakyStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    try await withServer(storage) { url, _ in
      try await onThread {
        // A long timeout: on a loaded machine an answer can take seconds; the outage is the 503.
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(60), retry: .none), seed: 1)
        _ = try phone.library.categories.getOrCreate("Produce")
        storage.fail(reads: 1)
        #expect {
          try phone.engine.sync()
        } throws: { error in
          guard case CloudError.unavailable(_, let reason) = error else { return false }
          return reason.contains("503")
        }
        #expect(try phone.engine.pendingChangeCount() == 1)
      }
    }
  }

  @Test func aPushWhoseAnswerIsLostIsStoredOnceAndTheDevicesConverge() async throws {
    let storage = FlakyStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], retry: Self.quick), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], retry: Self.quick), clock: clock, seed: 2)
        _ = try phone.library.categories.getOrCreate("Produce")
        _ = try phone.library.ingredients.getOrCreate("basil", category: "Produce")
        storage.fail(appendAnswers: 2)
        try phone.engine.sync()
        try laptop.engine.sync()
        #expect(try laptop.view() == phone.view())
        #expect(try laptop.view() == ["category Produce", "ingredient basil in Produce"])
        #expect(try phone.engine.pendingChangeCount() == 0)
      }
      // The lost answers did not store the batch twice: the log holds one batch per push.
      let household = try #require(try await storage.household(named: "Smith"))
      let log = try await storage.batches(of: household.id, after: 0, limit: 100)
      #expect(Set(log.map(\.batch)).count == log.count)
      #expect(log.count == 1)
    }
  }
}
