import Foundation
import Model
import Persistence

/// Keeps a store's tables equal to the view of its replicated state (`EntityView`) for
/// the records a transaction touched, and for whatever depends on them.
///
/// For each touched record it finds the record's identity component
/// (`IdentityComponents`: merge edges, and for unique kinds the live entities that show
/// one key), computes the view and writes it: the keeper's row shows the entity, the other
/// members' rows are tombstones. When which record shows a component changes, the records
/// that refer to its members are computed again (a meal whose recipe arrives is shown; a
/// line whose template was merged points at the keeper), and so are the records that
/// hold a key a member held or holds (a rename that leaves "Produce" shows the other
/// "Produce" again). Rows are written with the transaction's own origin (`sync`); nothing
/// here writes a register or an edge, so nothing derived is ever stamped as a user's write.
final class ViewUpdater {
  let components: IdentityComponents
  var writer: any StoreWriter { components.writer }
  var states: StateStore { components.states }
  var rows: RowCache { components.rows }
  let now: Date
  /// Live rows that became tombstones because their record is one entity with another.
  private(set) var merges = 0
  var errors = 0
  var notes: [(SyncMonitor.Event.Kind, String)] = []
  /// Keys whose holders were queued in this refresh.
  private var expanded: Set<SharedKey> = []
  /// Records counted in ``merges``.
  private var counted: Set<RecordKey> = []
  /// Which records' views depend on which (`sync.ref`).
  private let dependencies: DependencyIndex
  /// The `sync.unshown/` entries: records whose view the schema refuses.
  var unshown: Set<String>

  init(components: IdentityComponents, now: Date) throws {
    self.components = components
    self.now = now
    self.dependencies = DependencyIndex(components.writer)
    self.unshown = Set(try components.writer.metadataKeys(withPrefix: ReplicaKeys.unshownPrefix))
  }

  /// Brings the rows of every touched record's component, and of what refers to them or
  /// shares a key with them, up to date with the state.
  /// - Parameter created: records whose state a stamping made from their row alone
  ///   (`Stamper.created`), with those rows: each one ``showsAsWritten(_:row:)`` is left
  ///   out, as computing it would change nothing.
  /// - Parameter touched: each record once.
  func refresh(_ touched: some Collection<RecordKey>, created: [RecordKey: Record] = [:]) throws {
    var queue: [RecordKey]
    if states.leftKeys.isEmpty && created.isEmpty {
      queue = touched.sorted()
    } else {
      var start = Set(touched)
      for key in states.leftKeys {
        expanded.insert(key)
        for id in try states.holders(of: key) { start.insert(RecordKey(kind: key.kind, id: id)) }
      }
      for (key, row) in created where start.contains(key) {
        if try showsAsWritten(key, row: row) { start.remove(key) }
      }
      queue = start.sorted()
    }
    // The records still waiting in the queue, and every record the refresh reached, made
    // the first time a refresh asks for more (most refreshes ask for none).
    var queued: Set<RecordKey>?
    var reached: Set<RecordKey>?
    var next = 0, preloaded = 0
    // Each component is computed again only when something it depends on changed what it
    // shows; relationships form no cycles, so this ends after a few passes over the records
    // it reached. The bound is proportional to those records, so no amount of data reaches
    // it (a category with 100,000 templates is 100,000 records reached), only a fault: a
    // refresh that does not end rolls its transaction back rather than leave rows stale.
    var visitsPerRecord = Self.visitsPerRecord
    #if DEBUG
      if SyncMutation.active == .endlessRefresh { visitsPerRecord = 0 }
    #endif
    while next < queue.count {
      if next == preloaded {
        preloaded = min(queue.count, next + RowCache.pageSize)
        try preload(queue[next..<preloaded])
      }
      let key = queue[next]
      next += 1
      queued?.remove(key)
      guard next <= visitsPerRecord * (reached?.count ?? queue.count) else { throw SyncViewError.unfinishedRefresh(steps: next - 1) }
      let again = try refreshComponent(of: key)
      guard !again.isEmpty else { continue }
      var waiting = queued ?? Set(queue[next...])
      var seen = reached ?? Set(queue)
      queued = nil  // `waiting` and `seen` are now the sets' only copies: inserting copies nothing
      reached = nil
      for other in again where waiting.insert(other).inserted {
        queue.append(other)
        seen.insert(other)
      }
      queued = waiting
      reached = seen
    }
  }

  /// How many times, on average over the records a refresh reaches, it may compute one
  /// again before it is taken to be a fault. A record is computed again only when what it
  /// depends on changed what it shows, once per kind it depends on at most in practice.
  static let visitsPerRecord = 32

  /// Reads the rows and states of the next records to refresh, a page at a time, after
  /// forgetting the previous page's.
  private func preload(_ keys: ArraySlice<RecordKey>) throws {
    components.startPage()
    try rows.preload(keys)
    try states.preload(keys)
    try states.preloadHolders(states.keys(heldBy: keys))
  }

  /// Whether the row of a record created here already shows its view, with nothing that
  /// depends on it, so that ``refreshComponent(of:)`` would write nothing and return
  /// nothing. `row` is the row its state was made from, the state holding exactly its
  /// fields (a field at its default as no register).
  ///
  /// - Its component is the record alone: no edge in or out, and no other state holds its
  ///   key (a record that no longer does left the key index already).
  /// - Its state holds the row's dates (a store whose clock runs ahead of the time
  ///   authority's dates its state earlier than its row, `Stamper.onAuthorityClock`).
  /// - Its view is the row: every field the row lacks is optional without a default (else
  ///   the view would show the default), it refers to nothing (a reference resolves to
  ///   its target's keeper, or hides the record), and it is live.
  /// - Nothing depends on it: no `sync.ref` entry names it (a record that arrived earlier
  ///   and refers to this id is shown other than as written until now).
  ///
  /// Debug builds (and release builds with `FORAGER_SYNC_CHECKS=1`) also compute the
  /// component and view and check that they agree (``ShortcutChecks``).
  func showsAsWritten(_ key: RecordKey, row: Record) throws -> Bool {
    guard row.meta.isLive, try components.standsAlone(key), let state = try states.state(key), !state.isDeleted,
      state.createdAt == row.meta.createdAt, state.updatedAt == row.meta.updatedAt
    else { return false }
    for (field, value) in zip(key.kind.schema.fields, row.values) {
      switch value {
      case .null:
        guard field.isOptional, field.defaultValue == nil else { return false }
      case .reference:
        return false
      case .referenceList(let ids) where !ids.isEmpty:
        return false
      default:
        continue
      }
    }
    guard try dependencies.dependents(of: key).isEmpty else { return false }
    try ShortcutChecks.check(
      viewIsRow(key, row), "\(key.kind.rawValue) \(key.id) was taken as shown as written, but its view differs from its row")
    return true
  }

  /// Whether `key`'s component is itself alone and its view is `row` (for the check above).
  func viewIsRow(_ key: RecordKey, _ row: Record) -> Bool {
    guard (try? components.members(of: key)) == [key.id], let view = try? components.view(key.kind, [key.id]) else { return false }
    return (try? view.row(resolving: components.shownKeeper))?.record == row
  }

  // MARK: One component

  /// Computes and writes one component's view; returns the records to compute again.
  private func refreshComponent(of key: RecordKey) throws -> [RecordKey] {
    let kind = key.kind
    // Most records are their component alone: told without computing the component.
    let alone = try components.standsAlone(key)
    let ids = alone ? [key.id] : try components.members(of: key)
    try ShortcutChecks.check(
      !alone || (try? components.groups(of: key)) == [[key.id]], "\(kind.rawValue) \(key.id) taken as alone, but its component is not")
    // A record alone is computed once per refresh: its view is not kept for later.
    let computed = alone ? try components.uncachedView(key) : try components.view(kind, ids)
    guard let view = computed else { return [] }
    let row = try view.row(resolving: components.shownKeeper)
    let memberRows = try rows.rows(kind, ids)
    let existing = memberRows.first(where: { $0.id == view.keeper })
    let unchanged = existing == row.record
    // The store checks a row against its schema before it writes any of it (a row it
    // holds passed when it was written). A component of several records is checked here
    // first, before its other members' rows are set aside.
    if !unchanged && !alone {
      do {
        try row.record.validateAgainstSchema()
      } catch {
        return try notShown(kind, keeper: view.keeper, ids, rows: memberRows, error)
      }
    }
    let liveBefore = Set(memberRows.filter(\.meta.isLive).map(\.id))
    if !alone { try countMeetings(kind, key, rows: memberRows) }
    var changed = false
    var strays: [RecordKey] = []
    for old in memberRows.sorted(by: { UUID.keeperOrder($0.id, $1.id) }) where old.id != view.keeper && old.meta.isLive {
      try writer.tombstoneRecord(kind, id: old.id, at: now)
      rows.written(kind, old.id)
      changed = true
    }
    if !unchanged {
      let write = {
        if let existing {
          try self.writer.updateRecord(row.record, replacing: existing)
        } else {
          try self.writer.insertRecord(row.record)
        }
        self.rows.written(kind, view.keeper)
      }
      do {
        try write()
      } catch StoreError.uniqueViolation(_, _, let other) where !ids.contains(other) {
        // A live row of another component still shows the key: one whose state left it
        // in this transaction and whose own refresh comes later. The store refused the
        // write, changing nothing; that row is set aside and computed again.
        try writer.tombstoneRecord(kind, id: other, at: now)
        rows.written(kind, other)
        components.shownChanged()
        strays.append(RecordKey(kind: kind, id: other))
        strays += try referrers(kind, members: [other], formerlyShown: [other])
        try write()
      } catch let error as StoreError {
        guard case .invalidRecord = error else { throw error }
        return try notShown(kind, keeper: view.keeper, ids, rows: memberRows, error)
      }
      changed = true
    }
    if !unshown.isEmpty { try shownAgain(kind, ids) }
    try indexResolvedReferences(of: view, owner: RecordKey(kind: kind, id: view.keeper))
    if !alone { try indexGroupReferences(kind, key) }

    let liveAfter: Set<UUID> = row.status == .live ? [view.keeper] : []
    if liveAfter != liveBefore { components.shownChanged() }
    // A record alone is the only holder of its key (`standsAlone`), and no holder changes
    // during a refresh (it writes no state): its key has no other holder to compute again.
    var again = alone ? strays : strays + (try keyHolders(kind, ids, changed: changed))
    // What refers to the component resolves differently when the record showing it
    // changed, when a member may have joined it (a merged entity), or when one may have
    // left it (a unique kind's records that stopped showing one key). The records noted
    // as depending on it are computed again in every case: a planned meal that is one
    // entity with another by its slot depends on its recipe whatever the entity's row
    // shows. A component that is not shown and whose rows are tombstones may be a user's
    // own delete, which reached the rows before the view: the rows that showed it as
    // written until then are found by reference too. (Its live referrers the delete rules
    // already cleared or removed; a referrer hidden for another reason, such as a recipe
    // line whose recipe is deleted, still names it, and must now be noted as depending on
    // it.)
    let formerlyShown: Set<UUID>
    if liveAfter != liveBefore {
      formerlyShown = liveBefore
    } else if liveAfter.isEmpty {
      formerlyShown = Set(memberRows.map(\.id))
    } else {
      formerlyShown = []
    }
    again += try referrers(kind, members: ids, formerlyShown: formerlyShown)
    return again
  }

  /// Counts the records that this refresh shows as one entity with another by a shared
  /// key for the first time: rows that were live, or never shown, outside the keeper's
  /// edge component (merges by edge are counted when the edge arrives).
  private func countMeetings(_ kind: EntityKind, _ key: RecordKey, rows: [Record]) throws {
    let groups = try components.groups(of: key)
    guard groups.count > 1 else { return }
    let keeper = groups[0][0]
    let rowsByID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for id in groups.dropFirst().joined() where rowsByID[id]?.meta.isLive ?? true {
      guard counted.insert(RecordKey(kind: kind, id: id)).inserted else { continue }
      merges += 1
      notes.append((.merge, "\(kind.rawValue) \(id.lowercaseText) shown as one with \(keeper.lowercaseText) (same key)"))
    }
  }

  /// The records holding a key a member of the component holds that are not in it: they
  /// may have been one entity with it before, or be one now. Each key is asked once per
  /// refresh, and again when the component's rows changed.
  private func keyHolders(_ kind: EntityKind, _ ids: [UUID], changed: Bool) throws -> [RecordKey] {
    guard kind.schema.identity.isUnique else { return [] }
    #if DEBUG
      if SyncMutation.active == .dropKeyHolderRule { return [] }
    #endif
    var found: [RecordKey] = []
    for id in ids {
      guard let state = try states.state(RecordKey(kind: kind, id: id)), let key = SharedKey(state) else { continue }
      guard expanded.insert(key).inserted || changed else { continue }
      for holder in try states.holders(of: key) where !ids.contains(holder) { found.append(RecordKey(kind: kind, id: holder)) }
    }
    return found
  }

  /// Notes each reference the view shows other than as written, so the record is computed
  /// again when the written target changes.
  private func indexResolvedReferences(of view: EntityView, owner: RecordKey) throws {
    for (kind, id) in view.writtenReferences where try components.shownKeeper(kind, id) != id {
      try noteDependency(of: owner, on: RecordKey(kind: kind, id: id))
    }
  }

  /// Notes the references of each edge component of an entity made of several by a shared
  /// key. Each belongs to the entity only while its own view is live, which can depend on
  /// what it refers to (a planned meal whose recipe is deleted is hidden and leaves its
  /// slot to the other meal), and the entity's view shows only the winning reference: so
  /// the entity is computed again when any of them changes.
  private func indexGroupReferences(_ kind: EntityKind, _ key: RecordKey) throws {
    let groups = try components.groups(of: key)
    guard groups.count > 1 else { return }
    for group in groups {
      guard let view = try components.view(kind, group) else { continue }
      for (target, id) in view.writtenReferences {
        try noteDependency(of: RecordKey(kind: kind, id: group[0]), on: RecordKey(kind: target, id: id))
      }
    }
  }

  /// Notes in the `sync.ref` index that `owner`'s view is computed again when `target`'s
  /// changes (``referrers(_:members:formerlyShown:)`` reads it).
  func noteDependency(of owner: RecordKey, on target: RecordKey) throws {
    try dependencies.note(owner, dependsOn: target)
  }

  /// The records whose view depends on the component: rows that point at the id that
  /// showed it (they showed it as written), and records whose view shows a member other
  /// than as written (noted by ``indexResolvedReferences(of:owner:)``: a reference to an
  /// id that shows the component only now was shown other than as written until now, so
  /// its owner is among these, and no query by reference is needed for it).
  func referrers(_ kind: EntityKind, members: [UUID], formerlyShown: Set<UUID>) throws -> [RecordKey] {
    var found: Set<RecordKey> = []
    for id in formerlyShown.sorted(by: UUID.keeperOrder) {
      for (owner, field) in EntitySchema.references(to: kind) {
        let query = RecordQuery(owner, filters: [.references(field.name, id)], includeDeleted: true, sort: [])
        for record in try writer.fetch(query) { found.insert(RecordKey(kind: owner, id: record.id)) }
      }
    }
    for id in members { found.formUnion(try dependencies.dependents(of: RecordKey(kind: kind, id: id))) }
    return found.sorted()
  }
}
