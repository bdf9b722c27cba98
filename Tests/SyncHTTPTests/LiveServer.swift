import Foundation
import Hummingbird
import Logging
import Model
import Persistence
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import TestSupport

/// Runs `body` with `forager-server`'s routes listening on a port of 127.0.0.1 (0: a free
/// one); the server stops when `body` returns or throws.
func withServer<T: Sendable>(
  _ storage: any HouseholdStorage, port: Int = 0, configuration: ServerConfiguration = ServerConfiguration(),
  _ body: @escaping @Sendable (_ url: String, _ port: Int) async throws -> T
) async throws -> T {
  var logger = Logger(label: "test-server")
  logger.logLevel = .warning
  let service = SyncService(storage: storage, configuration: configuration, logger: logger)
  return try await withService(service, port: port, body)
}

/// Runs blocking work (the synchronous `CloudStore` calls) on a thread of its own, as the
/// REPL does, never on a Swift concurrency or event-loop thread. The work stays in the
/// calling task (a task executor preference), so its expectations count for the test.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  let executor = ThreadExecutor()
  defer { executor.stop() }
  return try await withTaskExecutorPreference(executor) { try body() }
}

/// A task executor with one thread of its own, which may block.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var stopped = false

  init() {
    Thread { [self] in runJobs() }.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.withLock {
      jobs.append(job)
      condition.signal()
    }
  }

  /// Ends the thread once the jobs enqueued so far have run.
  func stop() {
    condition.withLock {
      stopped = true
      condition.signal()
    }
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped { condition.wait() }
      guard !jobs.isEmpty else {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// One device: its own store, its repositories and its sync engine through the server.
/// Devices of a test share one ticking clock and get seeded ids, so which of two
/// concurrent writes wins is the same on every run.
final class Device: @unchecked Sendable {
  let name: String
  let store: any Store
  let library: Library
  let engine: SyncEngine

  init(_ name: String, cloud: any CloudStore, clock: TickingClock = TickingClock(), seed: UInt64) throws {
    self.name = name
    store = try TestBackend.memory.makeStore(clock: clock.now)
    library = Library(store: store, now: clock.now, ids: .seeded(seed &* 2))
    engine = SyncEngine(
      store: store, cloud: cloud, deviceName: name, monitor: SyncMonitor(clock: clock.now), replicaIDs: .seeded(seed &* 2 &+ 1))
  }

  /// What a user sees: categories and ingredient templates by name (with their category).
  func view() throws -> [String] {
    let categories = try library.categories.all()
    let names = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0.displayName) })
    let templates = try library.ingredients.all().map { "ingredient \($0.displayName) in \($0.category.flatMap { names[$0] } ?? "-")" }
    return (categories.map { "category \($0.displayName)" } + templates).sorted()
  }
}

/// A household with one token per device.
func tokens(_ storage: any HouseholdStorage, household: String = "Smith", devices: [String]) async throws -> [String] {
  let admin = Administration(storage: storage)
  if try await storage.household(named: household) == nil { _ = try await admin.addHousehold(household) }
  var secrets: [String] = []
  for device in devices { secrets.append(try await admin.issueToken(household: household, device: device).token.secret) }
  return secrets
}
