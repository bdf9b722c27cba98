import Foundation
import Model
import Persistence
import Repositories

/// Computes ``PointInTime/Plan``: each record's registers as this device showed them at T
/// (its current registers walked back through its history entries), the view of those
/// states (`EntityView`, references resolved among the states at T), and the records whose
/// row differs from it now.
struct Planner {
  let time: Date
  let states: [RecordKey: RecordState]
  /// Records other records were merged into: their view is made of several states, which
  /// a revert does not take apart.
  let mergedKeepers: Set<RecordKey>
  let reader: any StoreReader
  /// This device's replica id.
  let replica: String

  /// The state at T of each record: nil when it did not exist then.
  private enum AtT {
    case state(RecordState)
    case absent
    case unknown
  }

  func plan() throws -> PointInTime.Plan {
    var atT: [RecordKey: AtT] = [:]
    var notKept: [String] = []
    for (key, state) in states {
      if state.hasEdges || mergedKeepers.contains(key) {
        notKept.append("\(key.kind.rawValue) \(key.id.lowercaseText)")
        continue
      }
      let value = try stateAtT(state)
      if case .unknown = value { notKept.append("\(key.kind.rawValue) \(key.id.lowercaseText)") }
      atT[key] = value
    }
    // Records of a unique kind whose states at T hold one key are one entity, shown by its
    // keeper (the smallest id) from every member's registers, as the view shows it.
    var keeperOf: [RecordKey: RecordKey] = [:]
    var members: [RecordKey: [RecordState]] = [:]
    var byKey: [SharedKey: [RecordState]] = [:]
    for value in atT.values {
      guard case .state(let state) = value, state.kind.schema.identity.isUnique, let key = SharedKey(state) else { continue }
      byKey[key, default: []].append(state)
    }
    for group in byKey.values {
      let sorted = group.sorted { UUID.keeperOrder($0.id, $1.id) }
      let keeper = RecordKey(kind: sorted[0].kind, id: sorted[0].id)
      members[keeper] = sorted
      for member in sorted { keeperOf[RecordKey(kind: member.kind, id: member.id)] = keeper }
    }
    var statuses: [RecordKey: (record: Record, status: EntityView.Status)?] = [:]
    func view(_ key: RecordKey, depth: Int) -> (record: Record, status: EntityView.Status)? {
      if let known = statuses[key] { return known }
      let shown = keeperOf[key] ?? key
      guard depth < 8, shown == key, case .state(let state)? = atT[key],
        let entity = EntityView(keeper: key.id, members[key] ?? [state])
      else {
        statuses[key] = .some(nil)
        return nil
      }
      let row = entity.row { kind, id in
        let target = RecordKey(kind: kind, id: id)
        if case .unknown? = atT[target] { return id }  // left as it is: shown as it is now
        let keeper = keeperOf[target] ?? target
        guard let shown = view(keeper, depth: depth + 1), shown.status == .live else { return nil }
        return keeper.id
      }
      statuses[key] = row
      return row
    }

    var reverts: [RecordRevert] = []
    var restored = 0, removed = 0, changed = 0, renamed = 0
    for key in atT.keys.sorted() {
      if case .unknown? = atT[key] { continue }
      let current = try reader.record(key.kind, id: key.id)
      let isLiveNow = current?.meta.isLive ?? false
      if let keeper = keeperOf[key], keeper != key {
        // One entity with its keeper at T: a tombstone, its registers put back.
        guard case .state(let state)? = atT[key], let own = EntityView(keeper: key.id, [state]) else { continue }
        let fields = Dictionary(uniqueKeysWithValues: zip(key.kind.schema.fields.map(\.name), own.written))
        guard isLiveNow || current.map({ record in fields.contains { record[$0.key] != $0.value } }) ?? false else { continue }
        reverts.append(RecordRevert(kind: key.kind, id: key.id, fields: fields, liveness: .hidden))
        if isLiveNow { removed += 1 }
        continue
      }
      guard let target = view(key, depth: 0), target.status == .live else {
        guard isLiveNow else { continue }
        let hidden = view(key, depth: 0)?.status == .hidden
        reverts.append(RecordRevert(kind: key.kind, id: key.id, fields: [:], liveness: hidden ? .hidden : .deleted))
        removed += 1
        continue
      }
      if isLiveNow, let current, current.values == target.record.values { continue }
      let fields = Dictionary(uniqueKeysWithValues: key.kind.schema.fields.map { ($0.name, target.record[$0.name]) })
      reverts.append(RecordRevert(kind: key.kind, id: key.id, fields: fields, liveness: .live))
      if !isLiveNow {
        restored += 1
      } else {
        changed += 1
        let display = key.kind.schema.displayField
        if current?[display] != target.record[display] { renamed += 1 }
      }
    }
    return PointInTime.Plan(
      time: time, reverts: reverts, restored: restored, removed: removed, changed: changed, renamed: renamed, notKept: notKept.sorted())
  }

  /// The record's registers as this device showed them at T: its current registers with
  /// every history entry made at or after T undone, newest first. An entry's time is when
  /// the device wrote the state (a pull's join), except for a register this device wrote
  /// itself, whose time is its stamp's: the device showed its own write from when it was
  /// made, before the sync that stamped it. Unknown when the record's older entries were
  /// dropped and every entry kept is at or after T.
  private func stateAtT(_ state: RecordState) throws -> AtT {
    let key = RecordKey(kind: state.kind, id: state.id)
    let entries = try reader.syncHistory(state.kind, id: state.id).compactMap(HistoryEntry.init)
    var registers: [String: StampedValue] = [:]
    for name in state.fieldNames where !name.hasPrefix(RecordState.edgePrefix) { registers[name] = state[name] }
    var settled = Set<String>()
    var reachedBeforeT = false
    for entry in entries.reversed() {
      for (name, replacement) in entry.registers where !name.hasPrefix(RecordState.edgePrefix) && !settled.contains(name) {
        let written = replacement.new.stamp.replica == replica ? replacement.new.stamp.wallTime ?? entry.time : entry.time
        if written >= time {
          registers[name] = replacement.old
        } else {
          settled.insert(name)
          reachedBeforeT = true
        }
      }
    }
    if !reachedBeforeT, try reader.historyIsPartial(key) { return .unknown }
    guard registers[RecordState.existsField]?.value == .bool(true) else { return .absent }
    // A register this device wrote at or after T into a record it held then, with no entry:
    // the record's state was first written by the sync that stamped that write, so what
    // the device showed before it is not kept.
    let replaced = Set(entries.flatMap(\.registers.keys))
    for (name, value) in registers where !replaced.contains(name) && value.stamp.replica == replica {
      if let written = value.stamp.wallTime, written >= time { return .unknown }
    }
    return .state(
      RecordState(
        kind: state.kind, id: state.id, createdAt: state.createdAt, updatedAt: state.updatedAt, ownerID: state.ownerID,
        sharingScope: state.sharingScope, registers: registers))
  }
}
