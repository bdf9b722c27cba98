import Foundation
import Model
import Persistence

/// Keeps a store's tables equal to the view of its replicated state (`EntityView`) for
/// the records a transaction touched, and for whatever depends on them.
///
/// For each touched record it finds the record's identity component (merge edges, and
/// for unique kinds live entities that share a key: such a pair gets an edge of its own,
/// so a later rename cannot split it again), computes the view and writes it: the
/// keeper's row shows the entity, the other members' rows are tombstones. When which
/// record shows a component changes, the records that refer to its members are
/// computed again (a meal whose recipe arrives is shown; a line whose template was merged
/// points at the keeper). Rows are written with the transaction's own origin (`sync`), so
/// nothing derived here is ever stamped as a user's write.
final class ViewUpdater {
  let writer: any StoreWriter
  let states: StateStore
  let now: Date
  /// The stamp for an edge this replica derives.
  private let edgeStamp: () -> Stamp
  private(set) var merges = 0
  private(set) var errors = 0
  private(set) var notes: [(SyncMonitor.Event.Kind, String)] = []
  /// Records with edges this replica made, to push.
  private(set) var newEdges: Set<RecordKey> = []
  private var components: [RecordKey: [UUID]] = [:]

  init(writer: any StoreWriter, states: StateStore, now: Date, edgeStamp: @escaping () -> Stamp) {
    self.writer = writer
    self.states = states
    self.now = now
    self.edgeStamp = edgeStamp
  }

  /// Brings the rows of every touched record's component, and of what refers to them, up
  /// to date with the state.
  func refresh(_ touched: some Sequence<RecordKey>) throws {
    var queue = Array(Set(touched)).sorted()
    var queued = Set(queue)
    var next = 0
    // Each component is computed again only when something it refers to changed what it
    // shows; relationships form no cycles, so this ends. The bound guards damaged data.
    let limit = 20 * queue.count + 10_000
    while next < queue.count {
      let key = queue[next]
      next += 1
      queued.remove(key)
      guard next <= limit else {
        errors += 1
        notes.append((.error, "view update stopped after \(limit) steps"))
        return
      }
      for referrer in try refreshComponent(of: key) where queued.insert(referrer).inserted {
        queue.append(referrer)
      }
    }
  }

  // MARK: Components

  /// The ids of `key`'s component by merge edges, sorted by id.
  func members(of key: RecordKey) throws -> [UUID] {
    if let cached = components[key] { return cached }
    var seen: Set<UUID> = [key.id]
    var stack = [key.id]
    while let id = stack.popLast() {
      let member = RecordKey(kind: key.kind, id: id)
      var neighbours = states.losers(of: member)
      if let state = try states.state(member) { neighbours.append(contentsOf: state.keepers) }
      for neighbour in neighbours where seen.insert(neighbour).inserted { stack.append(neighbour) }
    }
    let sorted = seen.sorted(by: UUID.keeperOrder)
    for id in sorted { components[RecordKey(kind: key.kind, id: id)] = sorted }
    return sorted
  }

  /// The keeper of the component of (`kind`, `id`) when its row shows it, else nil.
  func shownKeeper(_ kind: EntityKind, _ id: UUID) throws -> UUID? {
    guard let keeper = try members(of: RecordKey(kind: kind, id: id)).first else { return nil }
    return try writer.liveRecord(kind, id: keeper) != nil ? keeper : nil
  }

  /// Adds the edge loser → keeper (the larger id to the smaller) that this replica derived.
  private func addEdge(_ kind: EntityKind, _ first: UUID, _ second: UUID) throws {
    let (keeper, loser) = UUID.keeperOrder(first, second) ? (first, second) : (second, first)
    let key = RecordKey(kind: kind, id: loser)
    var state =
      try states.state(key)
      ?? RecordState(kind: kind, id: loser, createdAt: now, updatedAt: now, ownerID: RecordMetadata.localOwner, sharingScope: .private)
    guard state.addEdge(to: keeper, stamp: edgeStamp()) else { return }
    states.set(state)
    try states.noteEdge(kind, loser: loser, keeper: keeper)
    newEdges.insert(key)
    components = [:]
    merges += 1
    notes.append((.merge, "\(kind.rawValue) \(loser.lowercaseText) merged into \(keeper.lowercaseText)"))
  }

  // MARK: One component

  /// Computes and writes one component's view; returns the records to compute again.
  private func refreshComponent(of key: RecordKey) throws -> [RecordKey] {
    let kind = key.kind
    var ids = try members(of: key)
    var view: EntityView?
    var row: (record: Record, status: EntityView.Status)?
    while true {
      guard let keeper = ids.first else { break }
      view = EntityView(keeper: keeper, try ids.compactMap { try states.state(RecordKey(kind: kind, id: $0)) })
      guard let current = view else { break }
      row = try current.row(resolving: shownKeeper)
      // Two live entities of a unique kind with one key are one entity.
      guard kind.schema.identity.isUnique, row?.status == .live, let semanticKey = row?.record.semanticKey, !semanticKey.isEmpty
      else { break }
      let others = try writer.records(kind, semanticKey: semanticKey).map(\.id).filter { !ids.contains($0) }
      guard !others.isEmpty else { break }
      for other in others { try addEdge(kind, current.keeper, other) }
      ids = try members(of: key)
    }
    let rows = try writer.records(kind, ids: ids)
    let liveBefore = Set(rows.filter(\.meta.isLive).map(\.id))
    guard let view, let row else { return [] }
    do {
      try row.record.validateAgainstSchema()
    } catch {
      errors += 1
      notes.append((.error, "\(kind.rawValue) \(view.keeper.lowercaseText) not shown: \(error)"))
      return []
    }
    for old in rows.sorted(by: { UUID.keeperOrder($0.id, $1.id) }) where old.id != view.keeper && old.meta.isLive {
      try writer.tombstoneRecord(kind, id: old.id, at: now)
    }
    if let existing = rows.first(where: { $0.id == view.keeper }) {
      if existing != row.record { try writer.updateRecord(row.record) }
    } else {
      try writer.insertRecord(row.record)
    }
    try indexResolvedReferences(of: view, owner: RecordKey(kind: kind, id: view.keeper))

    let liveAfter: Set<UUID> = row.status == .live ? [view.keeper] : []
    // What refers to the component resolves differently when the record showing it
    // changed, or (for a merged entity) when a member may have joined it.
    guard liveAfter != liveBefore || ids.count > 1 else { return [] }
    return try referrers(kind, members: ids, shownIDs: liveAfter == liveBefore ? [] : liveBefore.union(liveAfter))
  }

  /// Notes each reference the view shows other than as written, so the record is computed
  /// again when the written target changes.
  private func indexResolvedReferences(of view: EntityView, owner: RecordKey) throws {
    for (kind, id) in view.writtenReferences where try shownKeeper(kind, id) != id {
      try writer.setMetadata("", forKey: ReplicaKeys.reference(to: RecordKey(kind: kind, id: id), from: owner))
    }
  }

  /// The records whose view depends on the component: rows that point at an id that
  /// showed it or shows it now, and records whose view shows a member other than as written.
  private func referrers(_ kind: EntityKind, members: [UUID], shownIDs: Set<UUID>) throws -> [RecordKey] {
    var found: Set<RecordKey> = []
    for id in shownIDs.sorted(by: UUID.keeperOrder) {
      for (owner, field) in EntitySchema.references(to: kind) {
        let query = RecordQuery(owner, filters: [.references(field.name, id)], includeDeleted: true, sort: [])
        for record in try writer.fetch(query) { found.insert(RecordKey(kind: owner, id: record.id)) }
      }
    }
    for id in members {
      let prefix = ReplicaKeys.referencePrefix + ReplicaKeys.path(RecordKey(kind: kind, id: id)) + "/"
      for key in try writer.metadataKeys(withPrefix: prefix) {
        if let owner = ReplicaKeys.parsePath(key.dropFirst(prefix.count)) { found.insert(owner) }
      }
    }
    return found.sorted()
  }
}
