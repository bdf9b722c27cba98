import Foundation
import Model
import Persistence
import TestSupport

@testable import Sync

/// A record as the checks name it: kind and id.
struct RecordRef: Hashable, CustomStringConvertible {
  let kind: EntityKind
  let id: UUID

  init(_ kind: EntityKind, _ id: UUID) {
    self.kind = kind
    self.id = id
  }

  var description: String { "\(kind.rawValue) \(id.uuidString.prefix(8).lowercased())" }
}

/// What one device holds after a schedule: every stored row (tombstones included), the
/// merge edges its sync state knows (loser, keeper) and its states (`<kind>/<id>` → the
/// encoded state).
struct ReplicaSnapshot {
  let name: String
  let records: [Record]
  let edges: [(loser: RecordRef, keeper: RecordRef)]
  var states: [String: String] = [:]

  /// Reads a device's rows and the reverse merge edges sync keeps in the metadata table
  /// (`sync.edge/<kind>/<keeper>/<loser>`).
  static func read(_ name: String, _ store: any Store) throws -> ReplicaSnapshot {
    let records = try store.dump()
    let edges: [(loser: RecordRef, keeper: RecordRef)] = try store.read { reader in
      var edges: [(loser: RecordRef, keeper: RecordRef)] = []
      for key in try reader.metadataKeys(withPrefix: "sync.edge/") {
        let parts = key.dropFirst("sync.edge/".count).split(separator: "/")
        guard parts.count == 3, let kind = EntityKind(rawValue: String(parts[0])),
          let keeper = UUID(uuidString: String(parts[1])), let loser = UUID(uuidString: String(parts[2]))
        else { continue }
        edges.append((RecordRef(kind, loser), RecordRef(kind, keeper)))
      }
      return edges
    }
    return ReplicaSnapshot(name: name, records: records, edges: edges, states: try store.syncStates())
  }

  /// The records whose rows show an entity, live or not: the keepers of the reference
  /// view of this device's states.
  func keepers() -> Set<RecordRef> {
    let view = ReferenceView(states: states.values.compactMap(StateCoding.decode))
    var keepers: Set<RecordRef> = []
    for (key, expected) in view.expected {
      if case .row = expected { keepers.insert(RecordRef(key.kind, key.id)) }
    }
    return keepers
  }

  /// The state of a record, decoded.
  func state(_ ref: RecordRef) -> RecordState? {
    states[ref.kind.rawValue + "/" + ref.id.uuidString.lowercased()].flatMap(StateCoding.decode)
  }
}

/// The invariants of Docs/DESIGN.md §6, checked over every device after a schedule:
///
/// 1. every device holds the same states, register by register, and shows the same rows,
///    field by field and with the same dates, owner, sharing scope and deletion: every
///    live row, and every tombstone that shows an entity (a keeper's, as the reference view
///    of those states names them). A member's tombstone (a merged-away or key-sharing
///    record) is dated when that device set it aside, which no state says, so only its
///    not being live is compared;
/// 2. one live record per semantic key of a unique kind;
/// 3. no live record references a missing or deleted record;
/// 4. no record a user created is lost: each one is live on every device, or was
///    superseded — deleted by a user (itself or a record merged with it), merged into a
///    live record by a merge edge the device holds, or for a unique kind by the key its
///    state holds being shown by a live record on that device, or removed with a record it
///    required that was itself superseded.
///
/// Each check is shown failing on broken input in `ConvergenceCheckTests`.
struct ConvergenceCheck {
  var created: Set<RecordRef> = []
  var userDeleted: Set<RecordRef> = []

  func violations(_ replicas: [ReplicaSnapshot]) -> [String] {
    var problems: [String] = []
    if let first = replicas.first {
      let keepers = first.keepers()
      for other in replicas.dropFirst() {
        problems += Self.stateDifferences(first, other) + Self.differences(first, other, keepers: keepers)
      }
    }
    // What any device stored for a record, to follow a hidden record's parent on a device
    // whose view never showed it. A hidden record's row keeps the fields it had when it was
    // hidden, so every device's version is looked at.
    var known: [RecordRef: [Record]] = [:]
    for replica in replicas {
      for record in replica.records { known[RecordRef(record.kind, record.id), default: []].append(record) }
    }
    for replica in replicas {
      problems += Self.duplicateKeys(replica) + Self.danglingReferences(replica) + lostCreations(replica, known: known)
    }
    return problems
  }

  /// Invariant 1, states: two devices' states, register by register.
  static func stateDifferences(_ a: ReplicaSnapshot, _ b: ReplicaSnapshot) -> [String] {
    var problems: [String] = []
    for key in Set(a.states.keys).union(b.states.keys).sorted() where a.states[key] != b.states[key] {
      guard let left = a.states[key].flatMap(StateCoding.decode), let right = b.states[key].flatMap(StateCoding.decode) else {
        problems.append("state \(key) is held by \(a.states[key] == nil ? b.name : a.name) only")
        continue
      }
      var parts: [String] = []
      if left.createdAt != right.createdAt || left.updatedAt != right.updatedAt { parts.append("dates") }
      if !left.ownerID.utf8.elementsEqual(right.ownerID.utf8) || left.sharingScope != right.sharingScope {
        parts.append("owner or sharing")
      }
      for name in Set(left.registers.keys).union(right.registers.keys).sorted() where left.registers[name] != right.registers[name] {
        parts.append(
          "\(name): \(a.name) \(left.registers[name].map { "\($0.value)@\($0.stamp)" } ?? "none"), "
            + "\(b.name) \(right.registers[name].map { "\($0.value)@\($0.stamp)" } ?? "none")")
      }
      problems.append("state \(key) differs: " + parts.joined(separator: "; "))
    }
    return problems
  }

  /// Invariant 1, rows: the rows of two devices that show an entity, live or not
  /// (`keepers`, those of `a`'s states by default), compared record by record, field by
  /// field and by their metadata and deletion.
  static func differences(_ a: ReplicaSnapshot, _ b: ReplicaSnapshot, keepers given: Set<RecordRef>? = nil) -> [String] {
    let keepers = given ?? a.keepers()
    func entityRows(_ records: [Record]) -> [RecordRef: Record] {
      Dictionary(
        uniqueKeysWithValues: records.lazy.map { (RecordRef($0.kind, $0.id), $0) }.filter { $0.1.meta.isLive || keepers.contains($0.0) })
    }
    let (left, right) = (entityRows(a.records), entityRows(b.records))
    var problems: [String] = []
    for ref in Set(left.keys).union(right.keys).sorted(by: { "\($0)" < "\($1)" }) {
      switch (left[ref], right[ref]) {
      case (let x?, let y?):
        for field in x.changedFields(comparedTo: y) {
          problems.append("\(ref).\(field): \(a.name) shows \(shown(x[field])), \(b.name) shows \(shown(y[field]))")
        }
        let metadata: [(String, String, String)] = [
          ("@createdAt", "\(x.meta.createdAt.timeIntervalSince1970)", "\(y.meta.createdAt.timeIntervalSince1970)"),
          ("@updatedAt", "\(x.meta.updatedAt.timeIntervalSince1970)", "\(y.meta.updatedAt.timeIntervalSince1970)"),
          ("@ownerID", x.meta.ownerID, y.meta.ownerID), ("@sharingScope", x.meta.sharingScope.rawValue, y.meta.sharingScope.rawValue),
          (
            "@deletedAt", x.meta.deletedAt.map { "\($0.timeIntervalSince1970)" } ?? "live",
            y.meta.deletedAt.map { "\($0.timeIntervalSince1970)" } ?? "live"
          ),
        ]
        // Byte for byte, as the fields are compared (`FieldValue`'s `==`): Swift's `!=`
        // would take an owner in NFD for the same owner in NFC.
        for (name, left, right) in metadata where !left.utf8.elementsEqual(right.utf8) {
          problems.append("\(ref).\(name): \(a.name) shows \(left), \(b.name) shows \(right)")
        }
      case (let x?, nil): problems.append("\(ref) is \(x.meta.isLive ? "live" : "a tombstone") on \(a.name), not on \(b.name)")
      case (nil, let y?): problems.append("\(ref) is \(y.meta.isLive ? "live" : "a tombstone") on \(b.name), not on \(a.name)")
      case (nil, nil): break
      }
    }
    return problems
  }

  /// A value as a difference names it, marked when a text in it is not in NFC: texts in
  /// two Unicode forms print alike.
  static func shown(_ value: FieldValue) -> String {
    let texts: [String] =
      switch value {
      case .text(let text): [text]
      case .textList(let list): list
      default: []
      }
    return texts.allSatisfy(ValueRules.isCanonical) ? "\(value)" : "\(value) (not NFC)"
  }

  /// Invariant 2.
  static func duplicateKeys(_ replica: ReplicaSnapshot) -> [String] {
    var seen: [String: RecordRef] = [:]
    var problems: [String] = []
    for record in replica.records where record.meta.isLive && record.kind.schema.identity.isUnique {
      guard let key = record.semanticKey else { continue }
      let ref = RecordRef(record.kind, record.id)
      if let other = seen.updateValue(ref, forKey: "\(record.kind.rawValue)|\(key)") {
        problems.append("\(replica.name): \(other) and \(ref) are both live with key \(key.debugDescription)")
      }
    }
    return problems
  }

  /// Invariant 3.
  static func danglingReferences(_ replica: ReplicaSnapshot) -> [String] {
    let live = Set(replica.records.filter(\.meta.isLive).map { RecordRef($0.kind, $0.id) })
    var problems: [String] = []
    for record in replica.records where record.meta.isLive {
      for field in record.kind.schema.relationships {
        guard let target = field.type.referencedKind else { continue }
        let ids = record[field.name].reference.map { [$0] } ?? record[field.name].references
        for id in ids where !live.contains(RecordRef(target, id)) {
          problems.append(
            "\(replica.name): \(RecordRef(record.kind, record.id)).\(field.name) points at missing or deleted \(RecordRef(target, id))")
        }
      }
    }
    return problems
  }

  /// Invariant 4.
  func lostCreations(_ replica: ReplicaSnapshot, known: [RecordRef: [Record]]) -> [String] {
    let rows = Dictionary(uniqueKeysWithValues: replica.records.map { (RecordRef($0.kind, $0.id), $0) })
    // Merge components by the edges the device knows (a record may be merged into more
    // than one other, so components are unions, not chains).
    var parent: [RecordRef: RecordRef] = [:]
    func root(_ ref: RecordRef) -> RecordRef {
      var current = ref
      while let next = parent[current], next != current { current = next }
      return current
    }
    for edge in replica.edges {
      let (a, b) = (root(edge.loser), root(edge.keeper))
      if a != b { parent[a] = b }
    }
    var component: [RecordRef: Set<RecordRef>] = [:]
    for edge in replica.edges {
      for ref in [edge.loser, edge.keeper] { component[root(ref), default: []].insert(ref) }
    }
    func members(_ ref: RecordRef) -> Set<RecordRef> { component[root(ref)] ?? [ref] }
    // The keys this device shows live, per kind: a record of a unique kind whose state
    // holds one of them is one entity with the record that shows it.
    var shownKeys: Set<String> = []
    for record in replica.records where record.meta.isLive && record.kind.schema.identity.isUnique {
      if let field = record.kind.schema.semanticKeyField, let key = record[field].text {
        shownKeys.insert("\(record.kind.rawValue)|\(key)")
      }
    }
    func sharesAShownKey(_ ref: RecordRef) -> Bool {
      guard let state = replica.state(ref), let key = SharedKey(state) else { return false }
      return shownKeys.contains("\(key.kind.rawValue)|\(key.key)")
    }

    var explained: [RecordRef: Bool] = [:]
    func isSuperseded(_ ref: RecordRef, depth: Int) -> Bool {
      if let known = explained[ref] { return known }
      guard depth < 32 else { return false }
      let group = members(ref)
      var result = group.contains { rows[$0]?.meta.isLive == true || userDeleted.contains($0) || sharesAShownKey($0) }
      if !result {
        // Hidden with a record it required (cascade or required reference).
        let required = ref.kind.schema.relationships.filter { $0.deleteRule == .cascade || !$0.isOptional }
        // The entity's fields come from every member, so any member's parent counts.
        let parents = group.flatMap { known[$0] ?? [] }.flatMap { row in
          required.compactMap { field in field.type.referencedKind.flatMap { kind in row[field.name].reference.map { RecordRef(kind, $0) } }
          }
        }
        result = parents.contains { rows[$0]?.meta.isLive != true && isSuperseded($0, depth: depth + 1) }
      }
      explained[ref] = result
      return result
    }

    var problems: [String] = []
    for ref in created.sorted(by: { "\($0)" < "\($1)" }) where rows[ref]?.meta.isLive != true {
      if !isSuperseded(ref, depth: 0) {
        problems.append(
          "\(replica.name): \(ref), created by a user, is gone without a delete, a merge into a live record or a removed parent")
      }
    }
    return problems
  }
}
