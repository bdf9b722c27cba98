import Foundation
import Model
import Persistence
import Repositories
import Sync
import SyncMemory
import TestSupport
import Testing

/// Several devices and one cloud, on one ticking clock, for sync scenarios.
final class SyncWorld {
  struct Device {
    let name: String
    let library: Library
    let engine: SyncEngine
    var store: any Store { library.store }
  }

  let clock = TickingClock()
  let cloud: any CloudStore
  private(set) var devices: [Device] = []
  var offline: Set<String> = []
  /// How a device's tables differed from the reference view of its states after a sync
  /// (Docs/DESIGN.md §6, invariant 8), noted by ``checkView(_:after:)`` after every sync.
  private(set) var viewProblems: [String] = []
  /// The time spent in ``checkView(_:after:)``, for measuring what the check costs.
  private(set) var viewCheckTime: Duration = .zero
  private let backend: TestBackend
  private let seed: UInt64
  private let pullPageSize: Int
  private let pushBatchSize: Int
  /// The way to the cloud of a device added from now on, when not ``cloud`` itself (a
  /// wrapper that notes what the device pulls).
  var cloudOfDevice: ((String) -> any CloudStore)?

  /// Every id the devices make (records without a name-based id, replica ids) comes from
  /// `seed`, and time from one ticking clock, so a world replays exactly.
  init(
    _ backend: TestBackend, devices names: [String], cloud: (any CloudStore)? = nil, pullPageSize: Int = 64, pushBatchSize: Int = 500,
    seed: UInt64 = 0
  ) throws {
    self.cloud = cloud ?? InMemoryCloud(identifier: "cloud-\(seed)")
    self.backend = backend
    self.seed = seed
    self.pullPageSize = pullPageSize
    self.pushBatchSize = pushBatchSize
    for name in names { try addDevice(name) }
  }

  /// Adds a device with an empty store, its ids drawn from the world's seed.
  @discardableResult
  func addDevice(_ name: String) throws -> Device {
    let store = try backend.makeStore(clock: clock.now)
    let stream = seed &* 1_000 &+ UInt64(devices.count) &* 2
    let library = Library(store: store, now: clock.now, ids: .seeded(stream))
    let device = Device(
      name: name, library: library,
      engine: SyncEngine(
        store: store, cloud: cloudOfDevice?(name) ?? cloud, deviceName: name, monitor: SyncMonitor(clock: clock.now),
        pullPageSize: pullPageSize,
        pushBatchSize: pushBatchSize, replicaIDs: .seeded(stream &+ 1)
      ))
    devices.append(device)
    return device
  }

  subscript(name: String) -> Device {
    guard let device = devices.first(where: { $0.name == name }) else { fatalError("no device \(name)") }
    return device
  }

  @discardableResult
  func sync(_ name: String) throws -> SyncEngine.Report { try sync(self[name]) }

  /// Syncs a device (interrupted after that many pulled pages when asked), then holds its
  /// tables to the reference view of its states, also when the sync was interrupted.
  @discardableResult
  func sync(_ device: Device, interruptAfterPulledPages: Int? = nil) throws -> SyncEngine.Report {
    defer { checkView(device, after: "sync of \(device.name)") }
    return try device.engine.sync(interruptAfterPulledPages: interruptAfterPulledPages)
  }

  /// Notes every difference between the device's tables and the reference view of its
  /// states (`SyncVerifier`), and any local change a sync left unstamped.
  func checkView(_ device: Device, after event: String) {
    let started = ContinuousClock.now
    defer { viewCheckTime += ContinuousClock.now - started }
    do {
      let verification = try SyncVerifier(store: device.store).verify()
      if verification.unstamped > 0 { viewProblems.append("\(event): \(verification.unstamped) record(s) left unstamped") }
      viewProblems += verification.differences.map { "\(event): \($0)" }
    } catch {
      viewProblems.append("\(event): verify failed: \(error)")
    }
  }

  /// Syncs every online device in turn until a whole round moves nothing.
  func syncUntilQuiet(maxRounds: Int = 8) throws {
    for _ in 0..<maxRounds {
      var moved = 0
      for device in devices where !offline.contains(device.name) {
        let report = try sync(device)
        moved += report.exported + report.merges
      }
      if moved == 0 { return }
    }
    throw SyncWorldError.didNotSettle
  }

  enum SyncWorldError: Error { case didNotSettle }

  /// Live records of every kind, as (kind, id, fields), sorted: what invariant 1 compares.
  static func liveState(_ store: any Store) throws -> [String] {
    try store.dump().filter(\.meta.isLive).map { record in
      let fields = record.fields.keys.sorted().map { "\($0)=\(record[$0])" }.joined(separator: ";")
      return "\(record.kind.rawValue)|\(record.id.uuidString.lowercased())|\(fields)"
    }.sorted()
  }

  /// What every device holds now, for the checks.
  func snapshots() throws -> [ReplicaSnapshot] { try devices.map { try ReplicaSnapshot.read($0.name, $0.store) } }

  /// The invariants of Docs/DESIGN.md §6 over all devices (``ConvergenceCheck``); `check`
  /// carries the records users created and deleted, for invariant 4.
  func invariantViolations(_ check: ConvergenceCheck = ConvergenceCheck()) throws -> [String] {
    viewProblems + check.violations(try snapshots())
  }
}
