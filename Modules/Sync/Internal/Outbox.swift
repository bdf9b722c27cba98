import Foundation
import Model
import Persistence

/// This device's own writes, turned into register writes ("stamping") and sent.
///
/// Stamping reads the change log after the stamped position: each change a user (or a
/// migration) made writes the registers of the fields it changed, stamped by the hybrid
/// clock at the time of the change, so a write made offline at 10:00 is older than one
/// another device made at 10:05. Changes sync itself or a view made (origins `sync` and
/// `derived`: a cascade, a cleared reference, a merge's tombstone) write nothing: they are
/// the view's, which every device computes alike.
///
/// - A new record writes its existence and the values its creator gave. Its name and key
///   get the creation stamp, which any rename wins over, and a field holding its schema
///   default is not written at all, so an implicit create ("3 eggs" creating the egg
///   template) never overrides what another device set on purpose.
/// - A delete writes the existence register, unless it is the tombstone of a merge's loser.
/// - A merge (``PendingMerge``) adds its edge; a user's merge also writes every field of
///   the kept record again, so the kept record's values win over the merged one's.
/// - An edit, rename or delete of an entity the view shows as one with records that only
///   share its key first adds edges joining them (the user acted on the one entity they
///   saw); the view itself never writes an edge.
struct Stamper {
  let replica: String
  var clock: HybridLogicalClock
  /// When the stamping runs, on the time authority's clock: the physical time of a merge's
  /// stamp, and the latest a change's may have.
  let now: Date
  /// How far the time authority's clock lies ahead of the store's, in ms: a change the log
  /// dates at `t` (the store's clock) happened at `t + offset`.
  let offset: Int64
  /// The records of the merges stamped (their edges and the kept record's values), pushed
  /// whether or not a change of the log names them.
  private(set) var merged: Set<RecordKey> = []
  /// The rows of the records stamped, as read (at most ``rowsKept``), for the view refresh
  /// that follows in the same transaction: nothing writes a row in between.
  private(set) var rows: [RecordKey: Record] = [:]
  static let rowsKept = 10_000
  /// Records whose state this stamping created from one insert and nothing else: no state
  /// before, no other change, no edge, no merge. Their state is their row's fields as
  /// written (`ViewUpdater` checks when that makes computing their view again unneeded).
  private(set) var created: Set<RecordKey> = []

  /// Stamps every local change after the stamped position; returns the records whose
  /// state changed.
  mutating func stamp(_ writer: any StoreWriter, _ states: StateStore, _ components: IdentityComponents) throws -> Set<RecordKey> {
    let merges = try writer.pendingMerges()
    let mergedAway = Set(merges.map { RecordKey(kind: $0.kind, id: $0.loser) })
    var touched = Set<RecordKey>(), derived = Set<RecordKey>()
    var after = try writer.syncInteger(ReplicaKeys.stamped)
    while true {
      let page = try writer.changes(after: after, limit: 1_000)
      guard let last = page.last else { break }
      let own = page.filter(\.isUserWrite)
      // What a view change made here (a cascade, a cleared reference) is not a write, but
      // the record's row is computed again from the state like any other.
      for change in page where change.origin == .derived {
        touched.insert(RecordKey(kind: change.kind, id: change.id))
        derived.insert(RecordKey(kind: change.kind, id: change.id))
      }
      let keys = Set(own.map { RecordKey(kind: $0.kind, id: $0.id) })
      try states.preload(keys)
      var rows: [RecordKey: Record] = [:]
      for (kind, ids) in Dictionary(grouping: keys, by: \.kind) {
        for record in try writer.records(kind, ids: ids.map(\.id)) { rows[RecordKey(kind: kind, id: record.id)] = record }
      }
      for (key, row) in rows where self.rows.count < Self.rowsKept || self.rows[key] != nil { self.rows[key] = row }
      // The keys the records' states hold and the keys their rows hold now, in one read.
      try states.preloadHolders(states.keys(heldBy: keys) + rows.values.compactMap { row in SharedKey(row.kind) { row[$0] } })
      for change in own {
        let key = RecordKey(kind: change.kind, id: change.id)
        guard let row = rows[key] else { continue }
        if change.origin != .migration, change.operation != .insert, change.kind.schema.identity.isUnique {
          let partners = try joinKeyPartners(of: key, at: physical(of: change), states, components)
          touched.formUnion(partners)
          created.subtract(partners)
        }
        let before = try states.state(key)
        if before == nil, change.operation == .insert, !mergedAway.contains(key) { created.insert(key) } else { created.remove(key) }
        var state = before ?? emptyState(of: row)
        write(change, row: row, to: &state, mergedAway: mergedAway.contains(key))
        try states.set(state)
        touched.insert(key)
      }
      after = last.sequence
    }
    try writer.setSyncInteger(after, ReplicaKeys.stamped)
    for merge in merges {
      let keys = try record(merge, writer, states, components)
      touched.formUnion(keys)
      merged.formUnion(keys)
      created.subtract(keys)
      try writer.clearPendingMerge(merge)
    }
    created.subtract(derived)
    return touched
  }

  private mutating func write(_ change: Change, row: Record, to state: inout RecordState, mergedAway: Bool) {
    let migration = change.origin == .migration
    let stamp = migration ? Stamp.migration : next(physical: physical(of: change))
    let schema = change.kind.schema
    switch change.operation {
    case .insert:
      // A create names its owner: the owner travels with the existence register it writes.
      if state.write(RecordState.existsField, StampedValue(value: .bool(true), stamp: stamp)) { state.ownerID = row.meta.ownerID }
      let group = schema.identityFields
      let creation = migration ? Stamp.migration : Stamp.creation(replica, at: physical(of: change))
      for name in change.fields {
        guard let field = schema.field(named: name) else { continue }
        let value = row[name]
        if group.contains(name) {
          state.write(name, StampedValue(value: value, stamp: creation))
        } else if value != field.defaultValue {
          state.write(name, StampedValue(value: value, stamp: stamp))
        }
      }
    case .update:
      for name in Self.withIdentityGroup(change.fields, change.kind) where schema.field(named: name) != nil {
        state.write(name, StampedValue(value: row[name], stamp: stamp))
      }
      if row.meta.isLive && state.isDeleted,
        state.write(RecordState.existsField, StampedValue(value: .bool(true), stamp: stamp))
      {
        state.ownerID = row.meta.ownerID
      }
    case .delete:
      if !mergedAway { state.write(RecordState.existsField, StampedValue(value: .bool(false), stamp: stamp)) }
    }
    state.createdAt = min(state.createdAt, onAuthorityClock(row.meta.createdAt))
    state.updatedAt = max(state.updatedAt, onAuthorityClock(row.meta.updatedAt))
  }

  /// An empty state for a record this replica holds a row of, its dates on the time
  /// authority's clock.
  private func emptyState(of row: Record) -> RecordState { RecordState(row, dated: onAuthorityClock) }

  /// A row's date (the store's clock) on the time authority's clock: moved by the offset,
  /// and never after the stamping. Other devices hold a change's dates to the authority's
  /// time (`ChangeRules`), so a device whose clock runs ahead dates its records as the
  /// household's time does. A date of a store whose clock agrees with the authority is
  /// kept exactly.
  func onAuthorityClock(_ date: Date) -> Date { Self.onAuthorityClock(date, offset: offset, now: now) }

  /// ``onAuthorityClock(_:)`` for a store whose clock lies `offset` ms behind the
  /// authority's, at the authority's time `now`.
  static func onAuthorityClock(_ date: Date, offset: Int64, now: Date) -> Date {
    guard offset != 0 || date > now else { return date }
    return min(date.addingTimeInterval(Double(offset) / 1000), now)
  }

  /// Makes the entity a user acted on one for good: when it is shown as one with records
  /// that only share its key (`IdentityComponents`), adds an edge from each of their edge
  /// components to the keeper, stamped before the user's write, so a rename cannot split
  /// it and a delete deletes all of it on every device. Returns the records given an edge.
  private mutating func joinKeyPartners(
    of key: RecordKey, at time: Int64, _ states: StateStore, _ components: IdentityComponents
  ) throws -> [RecordKey] {
    let groups = try components.groups(of: key)
    guard groups.count > 1 else { return [] }
    let keeper = groups[0][0]
    var joined: [RecordKey] = []
    for group in groups.dropFirst() {
      let loserKey = RecordKey(kind: key.kind, id: group[0])
      guard var loser = try states.state(loserKey), loser.addEdge(to: keeper, stamp: next(physical: time)) else { continue }
      try states.set(loser)
      try states.noteEdge(key.kind, loser: loserKey.id, keeper: keeper)
      joined.append(loserKey)
      merged.insert(loserKey)
    }
    return joined
  }

  /// Adds a merge's edge and, for a user's merge, writes the kept record's fields again.
  private mutating func record(
    _ merge: PendingMerge, _ writer: any StoreWriter, _ states: StateStore, _ components: IdentityComponents
  ) throws -> [RecordKey] {
    let migration = merge.origin == .migration
    let stamp = migration ? Stamp.migrationMerge : next(physical: now.millisecondsSince1970)
    let loserKey = RecordKey(kind: merge.kind, id: merge.loser)
    let keeperKey = RecordKey(kind: merge.kind, id: merge.keeper)
    guard var loser = try states.state(loserKey) ?? writer.record(merge.kind, id: merge.loser).map({ emptyState(of: $0) }) else {
      return []
    }
    if loser.addEdge(to: merge.keeper, stamp: stamp) {
      try states.set(loser)
      try states.noteEdge(merge.kind, loser: merge.loser, keeper: merge.keeper)
    }
    if let row = try writer.record(merge.kind, id: merge.keeper) {
      var keeper = try states.state(keeperKey) ?? emptyState(of: row)
      for field in merge.kind.schema.fields { keeper.write(field.name, StampedValue(value: row[field.name], stamp: stamp)) }
      try states.set(keeper)
    }
    return [loserKey, keeperKey]
  }

  /// The next stamp of this replica's clock, for a write at `physical` (ms, the time
  /// authority's clock).
  mutating func next(physical: Int64) -> Stamp {
    let reading = clock.tick(physical: physical)
    return Stamp(time: reading.time, counter: reading.counter, replica: replica)
  }

  /// When `change` happened on the time authority's clock: its log time moved by the
  /// offset, and never after the stamping (a clock set back since the write).
  func physical(of change: Change) -> Int64 {
    min(change.timestamp.millisecondsSince1970 &+ offset, now.millisecondsSince1970)
  }

  /// Changed fields plus, when any of them is part of the kind's identity (the key and
  /// what it is computed from), the whole identity group, which is written as one unit.
  static func withIdentityGroup(_ fields: [String], _ kind: EntityKind) -> [String] {
    let group = kind.schema.identityFields
    guard !group.isEmpty, fields.contains(where: group.contains) else { return fields }
    return fields + group.filter { !fields.contains($0) }
  }
}

extension Change {
  /// Whether a user (or a migration) made this change, as opposed to sync or a view.
  var isUserWrite: Bool { origin != .sync && origin != .derived }
}

extension RecordState {
  /// An empty state for a record this replica holds a row of.
  init(_ row: Record) { self.init(row, dated: { $0 }) }

  /// An empty state for a record this replica holds a row of, its dates as `dated` gives
  /// them (`Stamper.onAuthorityClock`: the row's dates on the time authority's clock).
  init(_ row: Record, dated: (Date) -> Date) {
    self.init(
      kind: row.kind, id: row.id, createdAt: dated(row.meta.createdAt), updatedAt: dated(row.meta.updatedAt),
      ownerID: row.meta.ownerID, sharingScope: row.meta.sharingScope
    )
  }
}
