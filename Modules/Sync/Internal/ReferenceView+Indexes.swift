import Foundation
import Model
import Persistence

/// The local indexes the incremental view rests on, held to the states: the reverse merge
/// edges (`sync.edge/<kind>/<keeper>/<loser>`, one per edge register, no other) and the
/// dependency entries (`sync.ref/…`): a record that is not deleted whose row shows a
/// reference other than as written (to a merged, deleted or missing record) must be noted
/// as depending on the written target, or it is not computed again when that target
/// changes (a hidden meal would stay hidden when its recipe is created again). Dependency
/// entries are only ever added, so an entry the view does not need is not a difference.
extension ReferenceView {
  /// One index entry that is missing or should not be there.
  struct IndexEntry: Hashable {
    let owner: RecordKey
    let key: String
    let missing: Bool
    let what: String
  }

  /// The entries the states call for that the store lacks, and reverse edges it holds
  /// that no state has.
  func indexDifferences(_ reader: any StoreReader) throws -> [IndexEntry] {
    var found: [IndexEntry] = []
    var edges: Set<String> = []
    for (kind, byID) in states {
      for (id, state) in byID {
        for keeper in state.keepers { edges.insert(ReplicaKeys.reverseEdge(kind, keeper: keeper, loser: id)) }
      }
    }
    let stored = Set(try reader.metadataKeys(withPrefix: ReplicaKeys.edgePrefix))
    for key in edges.subtracting(stored).sorted() {
      if let entry = Self.edgeEntry(key, missing: true) { found.append(entry) }
    }
    for key in stored.subtracting(edges).sorted() {
      if let entry = Self.edgeEntry(key, missing: false) { found.append(entry) }
    }
    let noted = Set(try reader.metadataKeys(withPrefix: ReplicaKeys.referencePrefix))
    for (owner, target) in requiredDependencies() {
      let key = ReplicaKeys.reference(to: target, from: owner)
      if !noted.contains(key) {
        found.append(
          IndexEntry(owner: owner, key: key, missing: true, what: "depends on \(target.kind.rawValue) \(target.id.lowercaseText)"))
      }
    }
    return found.sorted { ($0.owner, $0.key) < ($1.owner, $1.key) }
  }

  /// `sync.edge/<kind>/<keeper>/<loser>` as an entry of the loser.
  private static func edgeEntry(_ key: String, missing: Bool) -> IndexEntry? {
    guard let keeper = ReplicaKeys.parsePath(key, from: ReplicaKeys.edgePrefix.utf8.count),
      let loser = ReplicaKeys.trailingID(key, from: key.utf8.count - 36)
    else { return nil }
    return IndexEntry(
      owner: RecordKey(kind: keeper.kind, id: loser), key: key, missing: missing, what: "merged into \(keeper.id.lowercaseText)")
  }

  /// Per shown record that is not deleted (live, or hidden by a reference), each written
  /// reference its row shows other than as written: the owner (the keeper) and the written
  /// target.
  func requiredDependencies() -> [(owner: RecordKey, target: RecordKey)] {
    var members: [RecordKey: [RecordState]] = [:]
    for (key, expected) in expected {
      guard let state = states[key.kind]?[key.id] else { continue }
      switch expected {
      case .row: members[key, default: []].append(state)
      case .notShown(let keeper): members[RecordKey(kind: key.kind, id: keeper), default: []].append(state)
      }
    }
    var required: [(owner: RecordKey, target: RecordKey)] = []
    for (key, expected) in expected {
      guard case .row = expected, let states = members[key] else { continue }
      // A deleted record's references are not kept (nothing reads them); a re-creation
      // computes it again from its own state.
      if Self.highest(states.compactMap { $0[RecordState.existsField] })?.value == .bool(false) { continue }
      for field in key.kind.schema.relationships {
        guard let target = field.type.referencedKind else { continue }
        let written = Self.highest(states.compactMap { $0[field.name] })?.value
        let ids = written?.reference.map { [$0] } ?? written?.references ?? []
        for id in ids where shownKeepers[target]?[id] != id {
          required.append((key, RecordKey(kind: target, id: id)))
        }
      }
    }
    return required
  }
}
