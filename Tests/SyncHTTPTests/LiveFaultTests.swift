import FaultProxySupport
import Foundation
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import SyncWire
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A live device when the network or the server says no: behind a proxy that cuts its
/// connections in the middle of answers it converges once its channel dropped and it
/// subscribed again; refused a subscription with `Retry-After`, it polls meanwhile and
/// subscribes again no sooner than the server said. Nothing here waits on a wall-clock
/// bound: loops wait for states, and the suite's limit ends a hang.
@Suite(.timeLimit(.minutes(10)))
struct LiveFaultTests {
  static let quickOptions = {
    var options = LiveSync.Options()
    options.minBackoff = .milliseconds(20)
    options.maxBackoff = .milliseconds(200)
    return options
  }()

  @Test func aDeviceWhoseConnectionsAreCutMidAnswerConvergesAndSubscribesAgain() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage, configuration: LiveChannelTests.fast()) { url, port in
      let proxy = try FaultProxy(targetPort: port)
      defer { proxy.stop() }
      try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], retry: RetryTests.quick), seed: 1)
        let laptop = try Device(
          "laptop", cloud: HTTPCloud(url: "http://127.0.0.1:\(proxy.port)", token: secrets[1], retry: RetryTests.quick), seed: 2)
        let live = LiveSync(engine: laptop.engine, options: Self.quickOptions)
        live.start()
        defer { live.stop() }
        try LiveChannelTests.run(live, until: { live.status.mode == .live })
        // The open channel is cut; from now on a third of what the server sends through the
        // proxy is cut halfway, answers and events alike.
        proxy.setFaults(FaultProxy.Faults(cutShare: 0.3, seed: 35))
        proxy.cutAll()
        try LiveChannelTests.run(live, until: { live.status.mode == .polling })
        #expect(live.status.lastDrop != nil)
        for round in 0..<5 {
          _ = try phone.library.categories.getOrCreate("Aisle \(round)")
          try phone.engine.sync()
          _ = try laptop.library.categories.getOrCreate("Shelf \(round)")
          live.noteLocalWrite()
          try LiveChannelTests.run(live) {
            try laptop.engine.pendingChangeCount() == 0 && laptop.view().contains("category Aisle \(round)")
          }
        }
        #expect(proxy.counts.cut > 1)
        // The network heals: the device subscribes again and both show the same.
        proxy.setFaults(FaultProxy.Faults())
        try LiveChannelTests.run(live, until: { live.status.mode == .live })
        try phone.engine.sync()
        #expect(try phone.view() == laptop.view())
        #expect(try laptop.view().count == 10)
      }
    }
    // Every batch is in the log once, however many answers were cut.
    let household = try #require(await storage.household(named: "Smith")).id
    let sequences = await storage.batches(of: household, after: 0, limit: 1_000).map(\.sequence)
    #expect(sequences == Array(1...Int64(sequences.count)))
  }

  /// The server refuses a second subscription of a token with 429 `live-token-limit` and
  /// `Retry-After: 5`: the device polls (it still gets the household's changes) and opens
  /// its channel again only once those 5 s passed on its clock.
  @Test func aRefusedChannelWaitsForRetryAfterAndPollsMeanwhile() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    var configuration = LiveChannelTests.fast()
    configuration.liveSubscribersPerToken = 1
    let service = SyncService(storage: storage, configuration: configuration)
    try await withService(service) { url, port in
      // Another process of the laptop holds the token's one subscription.
      let held = try LiveChannelTests.subscribeWithoutReading(port: port, token: secrets[1])
      var heldOpen = true
      defer { if heldOpen { close(held) } }
      while service.announcer.count < 1 { try await Task.sleep(for: .milliseconds(10)) }
      let clock = StillClock()
      let (phone, laptop, live) = try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], retry: RetryTests.quick), seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], retry: RetryTests.quick), seed: 2)
        let live = LiveSync(engine: laptop.engine, options: Self.quickOptions, now: { clock.now })
        live.start()
        try LiveChannelTests.run(live, until: { live.status.lastDrop?.contains("live-token-limit") == true })
        return (phone, laptop, live)
      }
      let refusedAt = clock.now
      #expect(live.status.mode == .polling)
      #expect(live.status.lastDrop?.contains("429") == true)
      #expect(live.status.reopenAt == refusedAt.addingTimeInterval(5))
      try await onThread {
        // A second later (past the backoff, before Retry-After) the phone's change arrives by a poll,
        // and the channel is not asked for again.
        _ = try phone.library.categories.getOrCreate("Produce")
        try phone.engine.sync()
        clock.advance(1)
        #expect(try live.runDue() != nil)
        #expect(try laptop.view() == ["category Produce"])
        #expect(live.status.reopenAt == refusedAt.addingTimeInterval(5))
      }
      #expect(service.announcer.count == 1)
      // The other subscription ends; past Retry-After the device subscribes and is live.
      close(held)
      heldOpen = false
      while service.announcer.count > 0 { try await Task.sleep(for: .milliseconds(10)) }
      clock.advance(4.5)
      try await onThread {
        try LiveChannelTests.run(live, until: { live.status.mode == .live })
        live.stop()
      }
      #expect(live.status.lastDrop?.contains("live-token-limit") == true)
    }
  }
}

/// A time that stands still until the test moves it.
final class StillClock: Sendable {
  private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
  var now: Date { current.withLock { $0 } }
  func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
