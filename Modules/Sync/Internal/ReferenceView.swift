import Foundation
import Model
import Persistence

/// The rows a device must show, computed from its replicated states alone: the plain rule
/// of Docs/SYNC.md ("The view"), kept beside the incremental `ViewUpdater` as its
/// executable specification.
///
/// Written for reading, not speed: it takes every state at once and uses no table, no
/// index and no shortcut of the incremental path (`IdentityComponents`, `EntityView`,
/// `RowCache`, `DependencyIndex`). Each step is one rule of the page:
///
/// 1. Edge components: the records joined by merge edges (an id an edge names belongs to
///    its component even before its own state arrives).
/// 2. Identity components: for a unique kind, the edge components whose rows are live and
///    show the same key, taken together; any other edge component stands alone.
/// 3. The keeper is the smallest id (`UUID.keeperOrder`); its row shows the entity, every
///    other member shows no live row.
/// 4. Each field is the highest register among the members; the identity fields come
///    together from the first member (by id) whose key register is highest (or, when none
///    holds one, the highest identity register), and the key is the key those fields give — when that member holds every required field
///    the key is computed from, a field of the group it lacks shows its default. A field
///    no one wrote shows its schema default; a required field without one leaves the
///    entity unshown (its creation has not arrived).
/// 5. The entity is deleted when the highest existence register says so.
/// 6. References resolve to the keeper of their target's component when that is shown;
///    otherwise an optional reference that nullifies is cleared, a list drops the id, and
///    any other reference hides the record.
/// 7. A row the schema refuses is not shown (its states break today's rules).
///
/// ```swift
/// let view = ReferenceView(states: allStates)
/// view.expected[RecordKey(kind: .category, id: id)]  // .row(record) or .notShown
/// ```
struct ReferenceView {
  /// What one record's row must be.
  enum Expected: Equatable {
    /// The keeper of a shown component: exactly this row (live, deleted or hidden).
    case row(Record)
    /// Any other member, or a member of a component its states cannot show yet: no live row.
    case notShown(keeper: UUID)
  }

  /// Every record a state or an edge names, and what its row must be.
  private(set) var expected: [RecordKey: Expected] = [:]
  /// Per kind, the keeper each member of a shown (live) component resolves to.
  private(set) var shownKeepers: [EntityKind: [UUID: UUID]] = [:]
  let states: [EntityKind: [UUID: RecordState]]

  init(states: some Sequence<RecordState>) {
    var byKind: [EntityKind: [UUID: RecordState]] = [:]
    for state in states { byKind[state.kind, default: [:]][state.id] = state }
    self.states = byKind
    for kind in EntityKind.allCases { show(kind) }
  }

  /// Computes `kind` after the kinds it refers to (relationships form no cycles).
  private mutating func show(_ kind: EntityKind) {
    guard shownKeepers[kind] == nil else { return }
    for field in kind.schema.relationships {
      if let target = field.type.referencedKind, target != kind { show(target) }
    }
    shownKeepers[kind] = [:]
    for members in identityComponents(kind) {
      guard let keeper = members.first else { continue }
      guard let record = row(kind, keeper: keeper, members: members) else {
        for id in members { expected[RecordKey(kind: kind, id: id)] = .notShown(keeper: keeper) }
        continue
      }
      for id in members {
        expected[RecordKey(kind: kind, id: id)] = id == keeper ? .row(record) : .notShown(keeper: keeper)
        if record.meta.isLive { shownKeepers[kind, default: [:]][id] = keeper }
      }
    }
  }

  // MARK: Components

  /// Rule 1: the records of `kind` joined by merge edges, each component sorted by id.
  private func edgeComponents(_ kind: EntityKind) -> [[UUID]] {
    var neighbours: [UUID: [UUID]] = [:]
    for (id, state) in states[kind] ?? [:] {
      neighbours[id, default: []] += state.keepers
      for keeper in state.keepers { neighbours[keeper, default: []].append(id) }
    }
    var seen: Set<UUID> = []
    var components: [[UUID]] = []
    for start in neighbours.keys.sorted(by: UUID.keeperOrder) where seen.insert(start).inserted {
      var component = [start]
      var stack = [start]
      while let id = stack.popLast() {
        for next in neighbours[id] ?? [] where seen.insert(next).inserted {
          component.append(next)
          stack.append(next)
        }
      }
      components.append(component.sorted(by: UUID.keeperOrder))
    }
    return components
  }

  /// Rule 2: for a unique kind, the edge components whose rows are live and show one key
  /// are one entity; each component sorted by id.
  private func identityComponents(_ kind: EntityKind) -> [[UUID]] {
    let edges = edgeComponents(kind)
    guard kind.schema.identity.isUnique else { return edges }
    var byKey: [String: [UUID]] = [:]
    var alone: [[UUID]] = []
    for members in edges {
      guard let keeper = members.first, let record = row(kind, keeper: keeper, members: members), record.meta.isLive,
        let key = record.semanticKey, !key.isEmpty
      else {
        alone.append(members)
        continue
      }
      byKey[key, default: []] += members
    }
    return alone + byKey.values.map { $0.sorted(by: UUID.keeperOrder) }
  }

  // MARK: One entity

  /// Rules 3–7: the keeper's row for a component, or nil when no member's state says
  /// enough to show it or the schema refuses the row.
  private func row(_ kind: EntityKind, keeper: UUID, members ids: [UUID]) -> Record? {
    let members = ids.compactMap { states[kind]?[$0] }
    guard let first = members.first else { return nil }
    let schema = kind.schema
    // Rule 4: the identity fields come from the first member whose key register is highest,
    // or when none holds one, the first holding the highest identity register.
    func firstHolding(highestOf names: [String]) -> RecordState? {
      var source: RecordState?
      var highest: StampedValue?
      for member in members {
        guard let own = Self.highest(names.compactMap({ member[$0] })) else { continue }
        if let current = highest, !Self.isHigher(own, than: current) { continue }
        (source, highest) = (member, own)
      }
      return source
    }
    let keySource = schema.semanticKeyField.flatMap { key in
      firstHolding(highestOf: [key]) ?? firstHolding(highestOf: schema.identityFields)
    }
    // A source holding every required field its key is computed from gives the whole group;
    // the key is what those fields give, else what its key register holds.
    let holdsInputs =
      keySource.map { source in
        schema.keyInputs.allSatisfy { name in
          source[name] != nil || schema.field(named: name).map { $0.isOptional || $0.defaultValue != nil } == true
        }
      } ?? false
    let key: String? = keySource.flatMap { source in
      let computed = Record.key(of: kind) { name in source[name]?.value ?? schema.field(named: name)?.defaultValue ?? .null }
      if holdsInputs, let computed, !computed.isEmpty { return computed }
      return schema.semanticKeyField.flatMap { source[$0]?.value.text }.flatMap { $0.isEmpty ? nil : $0 }
    }
    var values: [FieldValue] = []
    var hidden = false
    for field in schema.fields {
      if field.name == schema.semanticKeyField, let key {
        values.append(.text(key))
        continue
      }
      let fromSource = keySource.flatMap { schema.identityFields.contains(field.name) ? $0[field.name] : nil }
      let register: StampedValue? =
        fromSource
        ?? (holdsInputs && schema.identityFields.contains(field.name) ? nil : Self.highest(members.compactMap { $0[field.name] }))
      guard let written = register?.value ?? field.defaultValue ?? (field.isOptional ? .null : nil) else { return nil }
      // Rule 6.
      switch (written, field.type.referencedKind) {
      case (.reference(let id), let target?):
        if let resolved = shownKeepers[target]?[id] {
          values.append(.reference(resolved))
        } else if field.isOptional && field.deleteRule == .nullify {
          values.append(.null)
        } else {
          values.append(written)
          hidden = true
        }
      case (.referenceList(let ids), let target?):
        var resolved: [UUID] = []
        for id in ids {
          if let keeper = shownKeepers[target]?[id], !resolved.contains(keeper) { resolved.append(keeper) }
        }
        values.append(.referenceList(resolved))
      default:
        values.append(written)
      }
    }
    var meta = RecordMetadata(
      id: keeper, createdAt: members.map(\.createdAt).min() ?? first.createdAt,
      updatedAt: members.map(\.updatedAt).max() ?? first.updatedAt, ownerID: members.map(\.ownerID).max() ?? first.ownerID,
      sharingScope: members.map(\.sharingScope).max { $0.rawValue < $1.rawValue } ?? first.sharingScope)
    // Rule 5, then rule 6's hiding.
    if let existence = Self.highest(members.compactMap { $0[RecordState.existsField] }), existence.value == .bool(false) {
      meta.deletedAt = Date(timeIntervalSince1970: Double(existence.stamp.time) / 1000)
    } else if hidden {
      meta.deletedAt = meta.updatedAt
    }
    let record = Record(kind: kind, meta: meta, values: values)
    // Rule 7.
    guard (try? record.validateAgainstSchema()) != nil else { return nil }
    return record
  }

  /// The highest of some registers, or nil when there are none.
  static func highest(_ registers: [StampedValue]) -> StampedValue? {
    registers.reduce(nil as StampedValue?) { best, value in
      guard let best else { return value }
      return isHigher(value, than: best) ? value : best
    }
  }

  /// The register order: by stamp, and for equal stamps (the fixed migration tier) by the
  /// value's encoded bytes.
  private static func isHigher(_ value: StampedValue, than other: StampedValue) -> Bool {
    if value.stamp != other.stamp { return value.stamp > other.stamp }
    return ChangeBatchCoding.valueBytes(other.value).lexicographicallyPrecedes(ChangeBatchCoding.valueBytes(value.value))
  }
}
