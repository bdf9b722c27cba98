import BenchBaselines
import Foundation
import Repositories
import Sync
import Synchronization

/// Propagation: device A commits a change through its repositories and its live driver
/// pushes it; the time until device B's table shows it. The clock is read on A's thread
/// right after the write's transaction commits, and on B's thread right after a sync
/// committed and a read of B's store found the row: what a person holding B would see,
/// not the moment B heard an announcement. One change at a time, each after B showed the
/// one before, so no change waits behind another.
enum LivePropagation {
  struct Outcome {
    /// Seconds from A's commit to B's row, one per change.
    var latencies: [Double]
    /// Syncs of A and B that failed and were retried (cut connections).
    var failedSyncs: Int
  }

  /// Changes not yet seen by B: name → A's commit time (monotonic ns).
  final class Tracker: Sendable {
    private let pending = Mutex<[String: UInt64]>([:])
    private let seen = Mutex<[String: Double]>([:])

    func committed(_ name: String, at time: UInt64) { pending.withLock { $0[name] = time } }

    /// On B's thread after a sync: the pending changes B's store now shows.
    func check(_ device: LiveDevice) {
      let names = pending.withLock { Array($0.keys) }
      for name in names where (try? device.library.categories.find(name)) != nil {
        let now = nanoseconds()
        guard let start = pending.withLock({ $0.removeValue(forKey: name) }) else { continue }
        seen.withLock { $0[name] = Double(now - start) / 1e9 }
      }
    }

    func latency(of name: String) -> Double? { seen.withLock { $0[name] } }

    /// What went wrong on A's thread, for the scenario's thread to throw.
    let failure = Mutex<String?>(nil)
  }

  /// A on `a`, B on `b` (a server's address or a proxy's), `changes` changes in turn.
  /// - Throws: when a change does not reach B within a minute, the devices cannot start,
  ///   or A and B do not show the same categories once both settled.
  static func measure(
    _ context: Context, label: String, a: (url: String, token: String), b: (url: String, token: String), changes: Int
  ) throws -> Outcome {
    let tracker = Tracker()
    let deviceA = try LiveDevice("A-\(label)", path: context.path("a-\(label).sqlite"), url: a.url, token: a.token)
    let deviceB = try LiveDevice("B-\(label)", path: context.path("b-\(label).sqlite"), url: b.url, token: b.token) {
      tracker.check($0)
    }
    deviceA.start()
    deviceB.start()
    var stopped = false
    let stopBoth = {
      guard !stopped else { return }
      stopped = true
      deviceA.stop()
      deviceB.stop()
    }
    defer { stopBoth() }
    // Both subscribed and caught up with the household's log (new devices pull it whole
    // first): what is timed is a change, not a device's first sync.
    try waitUntil("A and B are live and caught up (\(label))") {
      try [deviceA, deviceB].allSatisfy { device in
        let status = device.live.status
        return try status.mode == .live && status.syncs > 0 && device.live.lag() == 0
      }
    }

    var latencies: [Double] = []
    for index in 0..<changes {
      let name = "\(label) aisle \(index)"
      deviceA.perform { device in
        do {
          _ = try device.library.categories.getOrCreate(name)
          tracker.committed(name, at: nanoseconds())
          device.live.noteLocalWrite()
        } catch {
          tracker.failure.withLock { $0 = "A could not write \(name): \(error)" }
        }
      }
      try waitUntil("B shows '\(name)'") {
        if let message = tracker.failure.withLock({ $0 }) { throw BenchError(message) }
        return tracker.latency(of: name) != nil
      }
      latencies.append(tracker.latency(of: name) ?? .nan)
    }
    stopBoth()
    let failed = deviceA.failedSyncs.value + deviceB.failedSyncs.value
    // Both devices end with the same rows, or the figure is an error, not a result.
    try deviceA.settle()
    try deviceB.settle()
    try deviceA.settle()
    let (shownA, shownB) = (try deviceA.categoryNames(), try deviceB.categoryNames())
    guard shownA == shownB, shownA.filter({ $0.hasPrefix("\(label) aisle ") }).count == changes else {
      throw BenchError(
        "\(label): A and B did not converge: A shows \(shownA.count) categories, B \(shownB.count), "
          + "\(Set(shownA).symmetricDifference(shownB).sorted().prefix(5)) differ")
    }
    return Outcome(latencies: latencies, failedSyncs: failed)
  }

  /// Polls `done` every millisecond for at most a minute.
  static func waitUntil(_ what: String, _ done: () throws -> Bool) throws {
    let deadline = nanoseconds() + 60_000_000_000
    while try !done() {
      guard nanoseconds() < deadline else { throw BenchError("timed out after a minute waiting until \(what)") }
      usleep(1_000)
    }
  }
}
