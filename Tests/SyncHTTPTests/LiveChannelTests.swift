import Foundation
import Logging
import PostgresNIO
import Repositories
import ServerTestSupport
import ServiceLifecycle
import Sync
import SyncHTTP
import SyncPostgres
import SyncServer
import SyncServerMemory
import SyncWire
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live channel over real HTTP on loopback: announcements reach subscribers (also of
/// another server instance on the same database), subscriptions are bounded, a slow reader
/// costs nothing, a server that shuts down closes its streams, and a live device that loses
/// its server converges when it comes back. Nothing here waits on a wall-clock bound: each
/// test waits for events, and the suite's limit ends a hang.
@Suite(.timeLimit(.minutes(10)))
struct LiveChannelTests {
  /// The signals of one channel, as a stream a test awaits.
  final class Signals: Sendable {
    let stream: AsyncStream<LiveSignal>
    let continuation: AsyncStream<LiveSignal>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }
    var handler: @Sendable (LiveSignal) -> Void { { [continuation] in continuation.yield($0) } }

    /// The first signal that `matches`, skipping the others (heartbeats).
    func first(where matches: (LiveSignal) -> Bool) async -> LiveSignal? {
      for await signal in stream where matches(signal) { return signal }
      return nil
    }
  }

  static func opened(_ signal: LiveSignal) -> Bool { if case .opened = signal { true } else { false } }
  static func ended(_ signal: LiveSignal) -> Bool { if case .ended = signal { true } else { false } }
  static func announced(_ signal: LiveSignal) -> Bool { if case .announced = signal { true } else { false } }

  static func fast() -> ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.liveHeartbeat = .seconds(1)
    return configuration
  }

  @Test func aPushIsAnnouncedToTheHouseholdsSubscribers() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    try await withServer(storage, configuration: Self.fast()) { url, _ in
      let signals = Signals()
      let laptop = try await onThread { try HTTPCloud(url: url, token: secrets[1]) }
      let channel = laptop.openLiveChannel(signals.handler)
      defer { channel.close() }
      #expect(await signals.first(where: Self.opened) == .opened(latestSequence: 0, heartbeat: .seconds(1)))
      try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0]), seed: 1)
        _ = try phone.library.categories.getOrCreate("Produce")
        try phone.engine.sync()
      }
      let announced = await signals.first { if case .announced = $0 { true } else { false } }
      #expect(announced == .announced(1))
    }
  }

  @Test func tooManySubscriptionsOfOneTokenAreRefusedClearly() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    var configuration = Self.fast()
    configuration.liveSubscribersPerToken = 1
    let service = SyncService(storage: storage, configuration: configuration)
    try await withService(service) { _, port in
      let held = try Self.subscribeWithoutReading(port: port, token: secrets[0])
      defer { close(held) }
      while service.announcer.count < 1 { try await Task.sleep(for: .milliseconds(10)) }
      let refused = try Self.subscribeWithoutReading(port: port, token: secrets[0])
      defer { close(refused) }
      // Read on a thread of its own: a blocking read on the cooperative pool could hold the
      // thread the server's handler needs to answer it.
      let answer = try await onThread { Self.readAnswer(refused) }
      #expect(answer.hasPrefix("HTTP/1.1 429 Too Many Requests"))
      #expect(answer.contains("Retry-After: 5") && answer.contains(#""code":"live-token-limit""#))
      #expect(answer.contains("already holds 1 live subscription"))
      #expect(service.announcer.count == 1)
    }
  }

  /// What a raw connection was answered: its bytes until the server closes it or stops sending.
  static func readAnswer(_ descriptor: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while !bytes.contains(where: { $0 == UInt8(ascii: "}") }) {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      bytes += buffer.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A subscriber that never reads holds one number in the server, however much is
  /// announced, and does not hold up the others.
  @Test func aSlowReaderDoesNotBloatTheServerOrHoldUpOthers() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    let household = try #require(await storage.household(named: "Smith")).id
    let service = SyncService(storage: storage, configuration: Self.fast())
    try await withService(service) { url, port in
      let silent = try Self.subscribeWithoutReading(port: port, token: secrets[0])
      defer { close(silent) }
      let signals = Signals()
      let laptop = try await onThread { try HTTPCloud(url: url, token: secrets[1]) }
      let channel = laptop.openLiveChannel(signals.handler)
      defer { channel.close() }
      #expect(await signals.first(where: Self.opened) != nil)
      while service.announcer.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
      for sequence in 1...100_000 { service.announcer.announce(household: household, sequence: Int64(sequence)) }
      #expect(await signals.first { $0 == .announced(100_000) || $0 == .heartbeat(latestSequence: 100_000) } != nil)
      #expect(service.announcer.count == 2)
    }
  }

  /// Announcements closer together than the gap reach a subscriber as one, the newest:
  /// a household writing fast is announced once a gap, not once a commit.
  @Test func announcementsCloserThanTheGapArriveAsTheNewestOnly() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["laptop"])
    let household = try #require(await storage.household(named: "Smith")).id
    var configuration = Self.fast()
    configuration.liveAnnouncementGap = .seconds(3)
    let service = SyncService(storage: storage, configuration: configuration)
    try await withService(service) { url, _ in
      let signals = Signals()
      let laptop = try await onThread { try HTTPCloud(url: url, token: secrets[0]) }
      let channel = laptop.openLiveChannel(signals.handler)
      defer { channel.close() }
      #expect(await signals.first(where: Self.opened) != nil)
      service.announcer.announce(household: household, sequence: 1)
      #expect(await signals.first(where: Self.announced) == .announced(1))
      // Each 20 ms after the one before, where a write takes well under a millisecond:
      // without the gap each would be announced on its own.
      for sequence in 2...5 {
        service.announcer.announce(household: household, sequence: Int64(sequence))
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(await signals.first(where: Self.announced) == .announced(5))
    }
  }

  @Test func aServerShuttingDownClosesItsStreams() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone"])
    let service = SyncService(storage: storage, configuration: Self.fast())
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = service.application(host: "127.0.0.1", port: 0) { continuation.yield($0) }
    let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test")))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      let stream = try Self.subscribeWithoutReading(port: port, token: secrets[0])
      defer { close(stream) }
      while service.announcer.count < 1 { try await Task.sleep(for: .milliseconds(10)) }
      await group.triggerGracefulShutdown()
      // Everything the server wrote until it closed the connection: hello, maybe heartbeats,
      // closing. Read on a thread of its own, off the pool the server's handlers run on.
      let text = try await onThread {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
          let count = recv(stream, &buffer, buffer.count, 0)
          guard count > 0 else { break }
          bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
      }
      #expect(text.contains("event: hello"))
      #expect(text.contains("event: closing\ndata: {\"reason\":\"shutdown\"}"))
      try await tasks.waitForAll()
      #expect(service.announcer.count == 0)
    }
  }

  /// Two servers on one database: a push through one is announced to the other's subscribers.
  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aPushThroughOneServerIsAnnouncedByAnother() async throws {
    try await withPostgres { _, first, location in
      let secrets = try await tokens(first, devices: ["phone", "laptop"])
      try await location.withRunningClient { client in
        let second = try await PostgresHouseholdStorage.open(client, database: location.description)
        let (serviceA, serviceB) = (
          SyncService(storage: first, configuration: Self.fast()), SyncService(storage: second, configuration: Self.fast())
        )
        try await withThrowingTaskGroup(of: Void.self) { watchers in
          watchers.addTask { await second.watchLogChanges(into: serviceB.announcer) }
          defer { watchers.cancelAll() }
          try await withService(serviceA) { urlA, _ in
            try await withService(serviceB) { urlB, _ in
              let signals = Signals()
              let laptop = try await onThread { try HTTPCloud(url: urlB, token: secrets[1]) }
              let channel = laptop.openLiveChannel(signals.handler)
              defer { channel.close() }
              #expect(await signals.first(where: Self.opened) == .opened(latestSequence: 0, heartbeat: .seconds(1)))
              try await onThread {
                let phone = try Device("phone", cloud: HTTPCloud(url: urlA, token: secrets[0]), seed: 1)
                _ = try phone.library.categories.getOrCreate("Produce")
                try phone.engine.sync()
              }
              let announced = await signals.first { if case .announced = $0 { true } else { false } }
              #expect(announced == .announced(1))
            }
          }
        }
      }
    }
  }

  /// A live device whose server goes away polls, subscribes again when it is back, and
  /// ends with every change, once.
  @Test func aLiveDeviceWhoseServerGoesAwayConvergesWhenItComesBack() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["phone", "laptop"])
    let options = {
      var options = LiveSync.Options()
      options.minBackoff = .milliseconds(50)
      options.maxBackoff = .milliseconds(400)
      return options
    }()
    let (port, phone, laptop, live) = try await withServer(storage, configuration: Self.fast()) { url, port in
      try await onThread {
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], retry: RetryTests.quick), seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], retry: RetryTests.quick), seed: 2)
        let live = LiveSync(engine: laptop.engine, options: options)
        live.start()
        _ = try phone.library.categories.getOrCreate("Produce")
        try phone.engine.sync()
        try Self.run(live, until: { try laptop.view() == ["category Produce"] })
        #expect(live.status.mode == .live)
        return (port, phone, laptop, live)
      }
    }
    // The server is gone: the channel drops and syncs fail; the device keeps trying.
    try await onThread {
      try Self.run(live, until: { live.status.mode == .polling })
      _ = try laptop.library.categories.getOrCreate("Dairy")
      live.noteLocalWrite()
    }
    try await withServer(storage, port: port, configuration: Self.fast()) { _, _ in
      try await onThread {
        _ = try phone.library.categories.getOrCreate("Bakery")
        try phone.engine.sync()
        try Self.run(live, until: { try laptop.view() == ["category Bakery", "category Dairy", "category Produce"] })
        try Self.run(live, until: { live.status.mode == .live })
        try phone.engine.sync()
        #expect(try phone.view() == laptop.view())
        #expect(try laptop.engine.pendingChangeCount() == 0)
        live.stop()
      }
    }
    // Every batch is in the log once.
    let household = try #require(await storage.household(named: "Smith")).id
    let ids = await storage.batches(of: household, after: 0, limit: 1_000).map(\.sequence)
    #expect(ids == Array(1...Int64(ids.count)))
  }

  /// Runs a live device's loop on this thread until `done` (sync failures while the server
  /// is away are part of the test).
  static func run(_ live: LiveSync, until done: () throws -> Bool) throws {
    while try !done() {
      live.wait(timeout: .milliseconds(200))
      _ = try? live.runDue()
    }
  }

  /// A raw connection that asks for the live stream and never reads a byte.
  static func subscribeWithoutReading(port: Int, token: String) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw CloudError.unavailable(location: "127.0.0.1:\(port)", reason: "connect failed") }
    // A read waits a minute at most: a server that never answers fails the test, not the run.
    var limit = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    let request = "GET /v1/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
    _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
    return descriptor
  }
}
