import Foundation
import Model
import Persistence

/// Brings back into the present the writes this device stamped while its clock ran ahead.
///
/// A device whose clock is set to next week stamps its writes next week; the server refuses
/// them as `clock-ahead` (they would win every last-writer-wins race for a week), so they
/// wait in the outbox. Once the clock is set right, the next stamping finds the replica's
/// clock beyond physical time plus the allowed skew. Then each register of a record in the
/// outbox (changed after the pushed position) that holds this device's own write with a
/// stamp past that limit gets a new stamp from the clock pulled back to the present, in the
/// order the old stamps had. No other device holds those writes — the server refused them —
/// so nothing another device received changes; the values stay as written.
enum ClockRepair {
  /// Restamps the outbox's future writes; returns the records it changed.
  static func restamp(
    _ writer: any StoreWriter, _ states: StateStore, replica: String, clock: inout HybridLogicalClock, limit: Int64, now: Int64
  ) throws -> Set<RecordKey> {
    guard clock.time > limit else { return [] }
    clock = clock.bounded(by: limit, now: now)
    var keys: [RecordKey] = []
    var seen = Set<RecordKey>()
    var after = try writer.syncInteger(ReplicaKeys.pushed)
    while true {
      let page = try writer.changes(after: after, limit: 1_000)
      guard let last = page.last else { break }
      for change in page where change.isUserWrite {
        let key = RecordKey(kind: change.kind, id: change.id)
        if seen.insert(key).inserted { keys.append(key) }
      }
      after = last.sequence
    }
    try states.preload(keys)
    var future: [(key: RecordKey, field: String, value: StampedValue)] = []
    for key in keys {
      guard let state = try states.state(key) else { continue }
      for field in state.fieldNames {
        guard let value = state[field], value.stamp.replica == replica, value.stamp.time > limit else { continue }
        future.append((key, field, value))
      }
    }
    var changed = Set<RecordKey>()
    var updated: [RecordKey: RecordState] = [:]
    // Registers one write stamped together keep one stamp, as a write's are: a record's
    // identity fields and a merge's edge and kept values stay one unit.
    var renewed: [Stamp: Stamp] = [:]
    for item in future.sorted(by: { $0.value.stamp < $1.value.stamp }) {
      guard var state = try updated[item.key] ?? states.state(item.key) else { continue }
      let stamp =
        renewed[item.value.stamp]
        ?? {
          let reading = clock.tick(physical: now)
          let stamp = Stamp(time: reading.time, counter: reading.counter, replica: replica)
          renewed[item.value.stamp] = stamp
          return stamp
        }()
      state.replace(item.field, with: StampedValue(value: item.value.value, stamp: stamp))
      updated[item.key] = state
      changed.insert(item.key)
    }
    for state in updated.values { try states.set(state) }
    return changed
  }
}
