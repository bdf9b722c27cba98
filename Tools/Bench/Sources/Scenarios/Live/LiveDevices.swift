import AsyncHTTPClient
import BenchBaselines
import Foundation
import Model
import NIOCore
import NIOHTTP1
import PersistenceSQLite
import Repositories
import Sync
import SyncHTTP
import SyncWire
import Synchronization

/// A device as the apps run one: a SQLite store, its repositories, a sync engine on an
/// `HTTPCloud`, and a `LiveSync` driving it from a thread that owns the store (the REPL's
/// loop: wait on the driver, run what is due). Work for the store is handed to that thread.
final class LiveDevice: @unchecked Sendable {
  let name: String
  let store: SQLiteStore
  let library: Library
  let engine: SyncEngine
  let live: LiveSync
  /// Called on the device's thread after each sync it ran.
  private let afterSync: @Sendable (LiveDevice) -> Void
  private let running = Mutex(true)
  private let finished = DispatchSemaphore(value: 0)
  private let jobs = Mutex<[@Sendable (LiveDevice) -> Void]>([])
  /// Syncs that failed (a cut connection, a server away); the driver retries after a backoff.
  let failedSyncs = Counter()

  /// Opens the store and the cloud on the calling thread (never the cooperative pool: the
  /// cloud's requests block).
  init(_ name: String, path: String, url: String, token: String, afterSync: @escaping @Sendable (LiveDevice) -> Void = { _ in }) throws {
    self.name = name
    store = try SQLiteStore(path: path)
    library = Library(store: store)
    let cloud = try HTTPCloud(url: url, token: token, timeout: .seconds(60))
    engine = SyncEngine(store: store, cloud: cloud, deviceName: name)
    live = LiveSync(engine: engine)
    self.afterSync = afterSync
  }

  /// Starts the driver and the thread that runs it.
  func start() {
    live.start()
    let thread = Thread { [self] in
      while running.withLock({ $0 }) {
        let handed = jobs.withLock { jobs in
          defer { jobs = [] }
          return jobs
        }
        for job in handed { job(self) }
        // A short wait bounds only how soon a handed-over job starts; announcements, the
        // debounce and polls wake the driver at once.
        live.wait(timeout: .milliseconds(5))
        do {
          if try live.runDue() != nil { afterSync(self) }
        } catch {
          failedSyncs.add()
        }
      }
      live.stop()
      finished.signal()
    }
    thread.name = "live-device-\(name)"
    thread.start()
  }

  /// Runs `job` on the device's thread, between two turns of its driver.
  func perform(_ job: @escaping @Sendable (LiveDevice) -> Void) { jobs.withLock { $0.append(job) } }

  /// Stops the driver and waits for its thread; the store is the caller's from then on.
  func stop() {
    running.withLock { $0 = false }
    finished.wait()
  }

  /// Syncs until nothing is pulled or pushed (after ``stop()``), tolerating `attempts`
  /// failed syncs (a device behind a proxy that cuts connections).
  func settle(attempts: Int = 20) throws {
    var failures = 0
    while true {
      do {
        let report = try engine.sync()
        if report.pulledBatches == 0 && report.pushedBatches == 0 { return }
      } catch {
        failures += 1
        guard failures < attempts else { throw error }
        usleep(200_000)
      }
    }
  }

  /// The names of the categories the device shows.
  func categoryNames() throws -> [String] { try library.categories.all().map(\.displayName).sorted() }
}

/// A subscribed device the bench does not time: it holds `GET /v1/live` open through the
/// bench's own HTTP client and, when an announcement passes its cursor, pulls the new
/// batches as a device would (one pull of up to 100), so the household's other devices
/// load the server as real ones do.
enum LiveListener {
  /// Subscribes and reads until the task is cancelled; `opened` hears each hello.
  static func run(
    _ http: HTTPClient, base: String, token: String, pull: Bool, failedPulls: Counter, opened: @escaping @Sendable () -> Void
  ) async {
    var cursor: String?
    var known: Int64 = 0
    while !Task.isCancelled {
      var request = HTTPClientRequest(url: base + Wire.Path.live)
      request.headers.add(name: "Authorization", value: "Bearer \(token)")
      request.headers.add(name: "Accept", value: Wire.eventStreamMediaType)
      do {
        let response = try await http.execute(request, deadline: .distantFuture)
        guard response.status == .ok else { throw BenchError("live subscription refused: \(response.status.code)") }
        var reader = LiveEventReader()
        for try await buffer in response.body {
          for event in try reader.feed(buffer.readableBytesView) {
            if case .hello = event { opened() }
            guard pull, let latest = event.latestSequence, latest > known else { continue }
            known = latest
            do {
              cursor = try await pullPage(http, base: base, token: token, cursor: cursor)
            } catch {
              failedPulls.add()
            }
          }
        }
      } catch {
        if Task.isCancelled { return }
      }
      try? await Task.sleep(for: .milliseconds(250))
    }
  }

  /// One pull from `cursor`; the next cursor.
  /// - Throws: when the pull is not answered with a page.
  static func pullPage(_ http: HTTPClient, base: String, token: String, cursor: String?) async throws -> String? {
    var pull = HTTPClientRequest(
      url: base + Wire.Path.batches + "?\(Wire.Query.limit)=100" + (cursor.map { "&\(Wire.Query.cursor)=\($0)" } ?? ""))
    pull.headers.add(name: "Authorization", value: "Bearer \(token)")
    let response = try await http.execute(pull, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 64 << 20)
    guard response.status == .ok else { throw BenchError("pull answered \(response.status.code)") }
    return try WireCoding.decoder().decode(PullPage.self, from: Data(body.readableBytesView)).cursor
  }

  /// Starts `tokens.count` subscribers (subscriber `index` on `bases[index % bases.count]`)
  /// and waits until each has been told hello, at most a minute.
  static func start(
    _ http: HTTPClient, bases: [String], tokens: [String], pull: Bool, failedPulls: Counter = Counter()
  ) throws -> Task<Void, Never> {
    let hellos = Counter()
    let task = Task {
      await withTaskGroup(of: Void.self) { group in
        for (index, token) in tokens.enumerated() {
          group.addTask {
            await run(http, base: bases[index % bases.count], token: token, pull: pull, failedPulls: failedPulls) { hellos.add() }
          }
        }
      }
    }
    let deadline = Date().addingTimeInterval(60)
    while hellos.value < tokens.count {
      guard Date() < deadline else {
        task.cancel()
        throw BenchError("only \(hellos.value) of \(tokens.count) live subscriptions opened within a minute")
      }
      usleep(10_000)
    }
    return task
  }
}

/// A number several threads add to.
final class Counter: Sendable {
  private let count = Mutex(0)
  func add(_ amount: Int = 1) { count.withLock { $0 += amount } }
  var value: Int { count.withLock { $0 } }
}
