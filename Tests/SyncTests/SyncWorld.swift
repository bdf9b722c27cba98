import Foundation
import Model
import Persistence
import Repositories
import Sync
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

  /// Every id the devices make (records without a name-based id, replica ids) comes from
  /// `seed`, and time from one ticking clock, so a world replays exactly.
  init(
    _ backend: TestBackend, devices names: [String], cloud: (any CloudStore)? = nil, pullPageSize: Int = 64, pushBatchSize: Int = 500,
    seed: UInt64 = 0
  ) throws {
    self.cloud = cloud ?? InMemoryCloud(identifier: "cloud-\(seed)")
    for (index, name) in names.enumerated() {
      let store = try backend.makeStore(clock: clock.now)
      let stream = seed &* 1_000 &+ UInt64(index) &* 2
      let library = Library(store: store, now: clock.now, ids: .seeded(stream))
      devices.append(
        Device(
          name: name, library: library,
          engine: SyncEngine(
            store: store, cloud: self.cloud, deviceName: name, monitor: SyncMonitor(clock: clock.now),
            pullPageSize: pullPageSize, pushBatchSize: pushBatchSize, replicaIDs: .seeded(stream &+ 1)
          )))
    }
  }

  subscript(name: String) -> Device {
    guard let device = devices.first(where: { $0.name == name }) else { fatalError("no device \(name)") }
    return device
  }

  @discardableResult
  func sync(_ name: String) throws -> SyncEngine.Report { try self[name].engine.sync() }

  /// Syncs every online device in turn until a whole round moves nothing.
  func syncUntilQuiet(maxRounds: Int = 8) throws {
    for _ in 0..<maxRounds {
      var moved = 0
      for device in devices where !offline.contains(device.name) {
        let report = try device.engine.sync()
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

  /// The invariants of DESIGN.md §7 over all devices (``ConvergenceCheck``); `check`
  /// carries the records users created and deleted, for invariant 4.
  func invariantViolations(_ check: ConvergenceCheck = ConvergenceCheck()) throws -> [String] {
    check.violations(try snapshots())
  }
}
