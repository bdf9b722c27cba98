public import Foundation
import Model

extension PointInTime {
  /// A restore computed from a household's log rather than a device's store: what a server
  /// operator writes into the log (`forager-server restore-household`).
  public struct LogRestore: Sendable, Hashable {
    /// What the restore changes, counted as for a device.
    public let plan: Plan
    /// The restore's changes, stamped by `replica`; nil when everything already shows as
    /// at T.
    public let batch: ChangeBatch?
  }

  /// The restore of a household's log to `time`: the view of every register stamped
  /// before `time` (on the household's clock, a stamp's time; a migration's fixed stamps
  /// count as before any time), written back as one batch of `replica`'s registers,
  /// stamped at `now` and later than every stamp of the log, which every device joins like
  /// any batch. The same planner as ``plan(before:in:now:)``; a log holds every value ever
  /// pushed, so no record lacks its history.
  /// - Parameters:
  ///   - time: the point in time the household's records go back to.
  ///   - batches: the household's log, oldest first (held and damaged entries left out).
  ///   - replica: the replica id the batch is stamped with (the operator's device).
  ///   - schemaVersion: the schema version the batch declares.
  ///   - now: the household's time; a `time` after it is refused.
  /// - Throws: ``PointInTimeError``: a time after `now`, before the log's first record,
  ///   or an empty log.
  public static func restore(
    _ batches: [ChangeBatch], before time: Date, replica: String, schemaVersion: Int, now: Date
  ) throws -> LogRestore {
    guard time <= now else { throw PointInTimeError.future(time) }
    var current: [RecordKey: RecordState] = [:]
    var past: [RecordKey: RecordState] = [:]
    var top = Int64.min
    for batch in batches {
      for change in batch.changes {
        let key = RecordKey(kind: change.kind, id: change.id)
        let state = RecordState(change)
        current[key, default: state].join(state)
        var registers: [String: StampedValue] = [:]
        for name in state.fieldNames {
          guard let value = state[name] else { continue }
          top = max(top, value.stamp.time)
          if (value.stamp.wallTime ?? .distantPast) < time { registers[name] = value }
        }
        guard !registers.isEmpty else { continue }
        let then = RecordState(
          kind: state.kind, id: state.id, createdAt: state.createdAt, updatedAt: state.updatedAt, ownerID: state.ownerID,
          sharingScope: state.sharingScope, registers: registers)
        past[key, default: then].join(then)
      }
    }
    guard let first = current.values.map(\.createdAt).min() else { throw PointInTimeError.nothingSynced }
    guard time >= first else { throw PointInTimeError.beforeFirstChange(time, first: first) }
    past = past.filter { $0.value[RecordState.existsField] != nil }
    let plan = Planner(time: time, now: current, atT: past, unknown: [], replica: replica).plan(stateWrites: 0)
    guard !plan.writes.isEmpty else { return LogRestore(plan: plan, batch: nil) }
    let base = max(now.millisecondsSince1970, top &+ 1)
    var fields: [RecordKey: [String: StampedValue]] = [:]
    var order: [RecordKey] = []
    for (index, write) in plan.writes.enumerated() {
      if fields[write.key] == nil { order.append(write.key) }
      let stamp = Stamp(
        time: base + Int64(index) / Int64(Stamp.maximumCounter), counter: Int32(index % Int(Stamp.maximumCounter)), replica: replica)
      fields[write.key, default: [:]][write.name] = StampedValue(value: write.value, stamp: stamp)
    }
    let changes = order.compactMap { key -> RecordChange? in
      guard let state = current[key] else { return nil }
      return RecordChange(
        kind: key.kind, id: key.id, createdAt: state.createdAt, updatedAt: max(state.updatedAt, now), ownerID: state.ownerID,
        sharingScope: state.sharingScope, fields: fields[key] ?? [:])
    }
    let id = "\(replica):restore-\(time.millisecondsSince1970)-\(base)"
    return LogRestore(plan: plan, batch: ChangeBatch(id: id, replica: replica, schemaVersion: schemaVersion, changes: changes))
  }
}
