import Foundation
import Model
import Persistence

/// Which records are one entity, computed from the replicated state alone.
///
/// - An *edge component* is the records joined by merge edges (grow-only, so it never
///   splits). Its key is the value of its highest key register (`EntityView`).
/// - An *identity component* is, for a unique kind, every edge component whose view is
///   live and shows the same key, taken together; a component that is deleted or hidden
///   stands alone. For other kinds it is the edge component.
///
/// Joining edge components that show one key leaves that key unchanged (the highest key
/// register among them holds it), so the grouping needs no fixed point and depends on
/// nothing but the state: a device that passed through a meeting of two keys on the way
/// (a rename that arrived before the rename that undid it) shows what a device that never
/// saw it shows. Nothing here writes an edge; a user who acts on an entity made of several
/// edge components makes it one by their own write (`Stamper`).
final class IdentityComponents {
  let states: StateStore
  /// The rows the view reads (whether a record is shown) and writes.
  let rows: RowCache
  var writer: any StoreWriter { states.writer }
  private var edgeComponents: [RecordKey: [UUID]] = [:]
  private var components: [RecordKey: [[UUID]]] = [:]
  /// The views computed since the states last changed, by kind and members.
  private var views: [ViewKey: EntityView?] = [:]
  /// The states' version the caches above were computed from.
  private var version: Int

  private struct ViewKey: Hashable {
    let kind: EntityKind
    let ids: [UUID]
  }

  init(states: StateStore) {
    self.states = states
    self.rows = RowCache(states.writer)
    self.version = states.version
  }

  /// Forgets what depends on which records are shown (after a component's row changed
  /// from live to not, or back: a planned meal whose recipe went is hidden).
  func shownChanged() { components = [:] }

  /// Forgets the rows and views read for the records refreshed so far, before the next page
  /// of them (they are read again if asked for), so memory stays bounded by a page.
  func startPage() {
    rows.forgetAll()
    views = [:]
  }

  /// Forgets everything computed from states that changed since (a write or an edge).
  private func forgetIfStatesChanged() {
    guard states.version != version else { return }
    version = states.version
    edgeComponents = [:]
    components = [:]
    views = [:]
  }

  /// The ids of `key`'s edge component, sorted by id.
  func edgeComponent(of key: RecordKey) throws -> [UUID] {
    forgetIfStatesChanged()
    if let cached = edgeComponents[key] { return cached }
    let own = try states.state(key)
    if try states.losers(of: key).isEmpty, own?.hasEdges != true {
      // No edge in or out (most records): the record alone.
      edgeComponents[key] = [key.id]
      return [key.id]
    }
    var seen: Set<UUID> = [key.id]
    var stack = [key.id]
    while let id = stack.popLast() {
      let member = RecordKey(kind: key.kind, id: id)
      var neighbours = try states.losers(of: member)
      if let state = try states.state(member) { neighbours.append(contentsOf: state.keepers) }
      for neighbour in neighbours where seen.insert(neighbour).inserted { stack.append(neighbour) }
    }
    let sorted = seen.sorted(by: UUID.keeperOrder)
    for id in sorted { edgeComponents[RecordKey(kind: key.kind, id: id)] = sorted }
    return sorted
  }

  /// The edge components of `key`'s identity component, each sorted by id, the keeper's first.
  func groups(of key: RecordKey) throws -> [[UUID]] {
    forgetIfStatesChanged()
    if let cached = components[key] { return cached }
    let own = try edgeComponent(of: key)
    var groups = [own]
    if try !holdsKeyAlone(key, own), let shared = try sharedKey(key.kind, own) {
      var included = Set(own)
      for holder in try states.holders(of: shared) where !included.contains(holder) {
        let other = try edgeComponent(of: RecordKey(kind: key.kind, id: holder))
        included.formUnion(other)
        if try sharedKey(key.kind, other) == shared { groups.append(other) }
      }
      groups.sort { UUID.keeperOrder($0[0], $1[0]) }
    }
    for group in groups {
      for id in group { components[RecordKey(kind: key.kind, id: id)] = groups }
    }
    return groups
  }

  /// Whether `key`'s identity component is the record alone (``groups(of:)`` would be
  /// `[[key.id]]`), told from its own state and the indexes alone: no edge in or out, and
  /// its kind is not unique or no other state holds its key. Cheaper than ``groups(of:)``
  /// (nothing is cached); false also when that takes computing a view (a unique kind's
  /// state without a key register).
  func standsAlone(_ key: RecordKey) throws -> Bool {
    guard try states.losers(of: key).isEmpty, let state = try states.state(key), !state.hasEdges else { return false }
    guard key.kind.schema.identity.isUnique else { return true }
    guard let shared = SharedKey(state) else { return false }
    return try states.holders(of: shared).allSatisfy { $0 == key.id }
  }

  /// The ids of `key`'s identity component, sorted by id: the keeper first.
  func members(of key: RecordKey) throws -> [UUID] {
    let groups = try groups(of: key)
    return groups.count == 1 ? groups[0] : groups.flatMap { $0 }.sorted(by: UUID.keeperOrder)
  }

  /// The keeper of the component of (`kind`, `id`) when its row shows it, else nil.
  func shownKeeper(_ kind: EntityKind, _ id: UUID) throws -> UUID? {
    guard let keeper = try members(of: RecordKey(kind: kind, id: id)).first else { return nil }
    return try rows.liveRow(kind, keeper) != nil ? keeper : nil
  }

  /// The view of a set of records taken as one entity, or nil when their states do not
  /// say enough to show it yet.
  func view(_ kind: EntityKind, _ ids: [UUID]) throws -> EntityView? {
    forgetIfStatesChanged()
    let key = ViewKey(kind: kind, ids: ids)
    if let cached = views[key] { return cached }
    guard let keeper = ids.first else { return nil }
    let view = EntityView(keeper: keeper, try ids.compactMap { try states.state(RecordKey(kind: kind, id: $0)) })
    views[key] = view
    return view
  }

  /// The view of `key` taken alone, computed without keeping it (``view(_:_:)`` keeps what
  /// it computes, for components asked about again).
  func uncachedView(_ key: RecordKey) throws -> EntityView? {
    try states.state(key).flatMap { EntityView(keeper: key.id, [$0]) }
  }

  /// Whether `key` is its edge component's only record and no other record's state holds
  /// its key: then no other component can show that key (one that does has a member whose
  /// key register holds it), and the component stands alone without computing its view.
  private func holdsKeyAlone(_ key: RecordKey, _ component: [UUID]) throws -> Bool {
    guard component.count == 1, let state = try states.state(key), let own = SharedKey(state) else { return false }
    return try states.holders(of: own).allSatisfy { $0 == key.id }
  }

  /// The key an edge component of a unique kind is one entity with others by: the key
  /// its view shows, when the view is live.
  private func sharedKey(_ kind: EntityKind, _ ids: [UUID]) throws -> SharedKey? {
    guard kind.schema.identity.isUnique, let view = try view(kind, ids) else { return nil }
    let row = try view.row(resolving: shownKeeper)
    guard row.status == .live, let key = row.record.semanticKey, !key.isEmpty else { return nil }
    return SharedKey(kind: kind, key: key)
  }
}
