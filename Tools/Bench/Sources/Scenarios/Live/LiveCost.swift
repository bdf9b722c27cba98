import BenchBaselines
import Foundation
import Model
import Sync

/// What being subscribed costs the server: its resident memory and CPU with idle
/// subscriptions against none, and the saturated push throughput with and without them.
enum LiveCost {
  /// One server process's resident set at the end of a quiet window and the CPU it used
  /// during it, per second.
  struct Quiet {
    var residentMiB: Double
    var cpuPerSecond: Double
  }

  /// Measures `pid` over `seconds` in which the bench sends it nothing.
  static func quiet(_ pid: Int32, seconds: Double) -> Quiet {
    let before = ServerLoadScenario.cpuSeconds(of: pid)
    usleep(useconds_t(seconds * 1e6))
    let used = ServerLoadScenario.cpuSeconds(of: pid) - before
    return Quiet(residentMiB: LiveBed.residentMiB(of: pid), cpuPerSecond: used / seconds)
  }

  /// Load devices (the `server` scenario's) of the first `households` households, a batch
  /// of `changes` changes per push.
  static func loadDevices(_ bed: LiveBed, count: Int, households: Int, changes: Int) throws -> [LoadDevice] {
    let households = (0..<count).map { $0 % max(1, households) }
    let tokens = try bed.tokens(households: households, prefix: "load")
    return tokens.enumerated().map { index, token in
      LoadDevice(
        token: token, replica: "load-\(index)", household: households[index], changes: changes,
        stagger: Double(index) / Double(count), ids: .seeded(UInt64(1_000 + index)))
    }
  }

  /// Pushes per second while every device pushes and pulls flat out for `seconds`.
  /// - Throws: when a request failed (a load run whose requests fail measures the failures).
  static func saturatedPushes(_ bed: LiveBed, _ devices: [LoadDevice], base: String, seconds: Double) throws -> Double {
    let (outcomes, elapsed) = try ServerLoadScenario.blocking { [http = bed.http] in
      try await ServerLoadScenario.phase(devices, http, base: base, seconds: seconds) { _ in 0 }
    }
    try ServerLoadScenario.failIfAnyFailed(outcomes)
    return Double(outcomes.map(\.pushLatencies.count).reduce(0, +)) / elapsed
  }
}
