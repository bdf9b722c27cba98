import Foundation
import Model
import Persistence

/// Computes a ``PointInTime/Plan``: the register writes that make the view of the states
/// now equal to the view of the states at T (`ReferenceView` of each), stamped later than
/// every register they replace.
///
/// A view is a function of the registers and edges of each entity's members. Edges only
/// grow, so the planner takes the states at T whose entities share members now — the
/// members of an identity component at T, joined with those of every edge component now —
/// as one group, and for each register that differs from its value at T in any member of
/// a group writes that register again in every member that held it at T, in the order of
/// their stamps at T: the highest at T is the highest after, so each field, the member
/// giving the identity fields and the existence of every entity come out as then. A
/// register a member did not hold at T is left below them, or, when no member held it,
/// written as the view showed it then (a field's value, `false` for existence).
///
/// The planner then computes the view of the states the writes give and compares it with
/// the view at T, record by record: a record that would still show otherwise is listed as
/// not kept, with why (merged with another since T, no history reaching T).
struct Planner {
  let time: Date
  let now: [RecordKey: RecordState]
  let atT: [RecordKey: RecordState]
  let unknown: Set<RecordKey>
  let replica: String

  func plan(stateWrites: Int64) -> PointInTime.Plan {
    let viewAtT = ReferenceView(states: atT.values)
    let viewNow = ReferenceView(states: now.values)
    var writes: [PointInTime.Write] = []
    var left: [RecordKey: PointInTime.Left.Reason] = [:]
    var mergedSince = Set<RecordKey>()
    for members in groups(viewAtT) {
      if members.contains(where: { Set(now[$0]?.keepers ?? []) != Set(atT[$0]?.keepers ?? []) }) {
        mergedSince.formUnion(members)
      }
      if members.contains(where: unknown.contains) {
        for key in members { left[key] = .historyNotKept }
        continue
      }
      writes += groupWrites(members, viewAtT)
    }
    // The states the writes give, stamped as the writes will be: above every stamp held.
    let top = now.values.lazy.flatMap { state in state.fieldNames.compactMap { state[$0]?.stamp.time } }.max() ?? 0
    var after = now
    for (index, write) in writes.enumerated() {
      after[write.key]?.write(
        write.name, StampedValue(value: write.value, stamp: Stamp(time: top + 1, counter: Int32(index), replica: replica)))
    }
    let viewAfter = ReferenceView(states: after.values)
    // A reference to a record merged since T shows its keeper: edges only grow.
    let mergedIDs = Set(mergedSince.map(\.id))
    let keys = Set(viewAtT.expected.keys).union(viewAfter.expected.keys)
    var counts = (restored: 0, removed: 0, changed: 0, renamed: 0)
    for key in keys.sorted() {
      let then = Self.shown(viewAtT, key), result = Self.shown(viewAfter, key), current = Self.shown(viewNow, key)
      if then?.values != result?.values, left[key] == nil {
        let merged = mergedSince.contains(key) || Self.differsByMergedReferences(then, result, merged: mergedIDs)
        left[key] = merged ? .mergedSince : .notRestorable
      }
      switch (current, result) {
      case (nil, .some): counts.restored += 1
      case (.some, nil): counts.removed += 1
      case (.some(let before), .some(let restored)) where before.values != restored.values:
        counts.changed += 1
        let display = key.kind.schema.displayField
        if before[display] != restored[display] { counts.renamed += 1 }
      default: break
      }
    }
    return PointInTime.Plan(
      time: time, writes: writes, stateWrites: stateWrites, restored: counts.restored, removed: counts.removed,
      changed: counts.changed, renamed: counts.renamed,
      notKept: left.sorted { $0.key < $1.key }.map { PointInTime.Left(kind: $0.key.kind, id: $0.key.id, reason: $0.value) })
  }

  /// Whether `result` differs from `then` only in references `then` made to records merged
  /// with another since T (which the view now resolves to the entity's keeper, or to
  /// nothing): both live, and every other field alike.
  static func differsByMergedReferences(_ then: Record?, _ result: Record?, merged: Set<UUID>) -> Bool {
    guard let then, let result, !merged.isEmpty, then.kind == result.kind else { return false }
    for field in then.kind.schema.fields where then[field.name] != result[field.name] {
      switch then[field.name] {
      case .reference(let id): guard merged.contains(id) else { return false }
      case .referenceList(let ids):
        let kept = Set(result[field.name].references)
        guard ids.allSatisfy({ kept.contains($0) || merged.contains($0) }) else { return false }
      default: return false
      }
    }
    return true
  }

  /// The row a view shows for `key` when it is live, else nil.
  private static func shown(_ view: ReferenceView, _ key: RecordKey) -> Record? {
    guard case .row(let record)? = view.expected[key], record.meta.isLive else { return nil }
    return record
  }

  /// The view at T's row of the entity `key` belonged to then, live or not.
  private static func row(at key: RecordKey, _ view: ReferenceView) -> Record? {
    switch view.expected[key] {
    case .row(let record)?: record
    case .notShown(let keeper)?:
      if case .row(let record)? = view.expected[RecordKey(kind: key.kind, id: keeper)] { record } else { nil }
    case nil: nil
    }
  }

  // MARK: Groups

  /// The records whose registers compete in one entity now or after the restore: the
  /// members of each identity component at T and of each edge component now, joined; each
  /// group sorted, the groups in the order of their first member.
  private func groups(_ viewAtT: ReferenceView) -> [[RecordKey]] {
    var parent: [RecordKey: RecordKey] = [:]
    func root(_ key: RecordKey) -> RecordKey {
      var key = key
      while let next = parent[key], next != key {
        parent[key] = parent[next] ?? next
        key = next
      }
      return key
    }
    func union(_ a: RecordKey, _ b: RecordKey) {
      let (ra, rb) = (root(a), root(b))
      if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
    for key in Set(now.keys).union(atT.keys) { parent[key] = key }
    for state in now.values {
      for keeper in state.keepers { union(RecordKey(kind: state.kind, id: state.id), RecordKey(kind: state.kind, id: keeper)) }
    }
    for (key, expected) in viewAtT.expected {
      if case .notShown(let keeper) = expected { union(key, RecordKey(kind: key.kind, id: keeper)) }
    }
    var groups: [RecordKey: [RecordKey]] = [:]
    for key in parent.keys where now[key] != nil { groups[root(key), default: []].append(key) }
    return groups.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
  }

  /// The writes that give one group's registers their order and values at T.
  private func groupWrites(_ members: [RecordKey], _ viewAtT: ReferenceView) -> [PointInTime.Write] {
    var names = Set<String>()
    for key in members {
      for name in (now[key]?.fieldNames ?? []) + (atT[key]?.fieldNames ?? []) where !name.hasPrefix(RecordState.edgePrefix) {
        names.insert(name)
      }
    }
    var writes: [PointInTime.Write] = []
    for name in names.sorted() {
      let registers = members.map { key in (key: key, then: atT[key]?[name], current: now[key]?[name]) }
      guard registers.contains(where: { $0.then != $0.current }) else { continue }
      let heldThen = registers.compactMap { register in register.then.map { (key: register.key, value: $0) } }
      if heldThen.isEmpty {
        // No member held it at T: written as the entity showed it then.
        for register in registers where register.current != nil {
          if name == RecordState.existsField {
            writes.append(PointInTime.Write(key: register.key, name: name, value: .bool(false)))
          } else if let row = Self.row(at: register.key, viewAtT) ?? members.lazy.compactMap({ Self.row(at: $0, viewAtT) }).first,
            row.meta.isLive, register.key.kind.schema.field(named: name) != nil
          {
            writes.append(PointInTime.Write(key: register.key, name: name, value: row[name]))
          }
        }
        continue
      }
      let ordered = heldThen.sorted { ($0.value.stamp, $0.key) < ($1.value.stamp, $1.key) }
      writes += ordered.map { PointInTime.Write(key: $0.key, name: name, value: $0.value.value) }
    }
    return writes
  }
}
