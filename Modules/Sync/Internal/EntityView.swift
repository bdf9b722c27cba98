import Foundation
import Model

/// What a reader sees of one entity: a pure function of the states of the records in its
/// identity component (the records joined by merge edges or by a shared key).
///
/// - The keeper, whose row shows the entity, is the member with the smallest id.
/// - Each field is the highest register among the members; a kind's identity fields (the
///   key and what it is computed from) come together from one member, the one whose key
///   register is highest (``identitySource(_:_:)``), and the key shown is the key those fields
///   give (`SharedKey`), whatever a key register holds. A field no one wrote shows its
///   schema default.
/// - The entity is deleted when the highest existence register among the members says so.
/// - References resolve through their target's component to its keeper; a reference to
///   a record that is not shown is cleared when optional, and hides the entity when it is
///   required or cascades (a planned meal whose recipe was deleted).
///
/// Nothing here reads the store or depends on what arrived first.
struct EntityView {
  enum Status: Equatable {
    case live
    case deleted(at: Date)
    /// Not deleted, but a required relationship points at a record that is not shown.
    case hidden
  }

  let kind: EntityKind
  let keeper: UUID
  /// Field values as written, merged by the rules above, before references are resolved:
  /// one per schema field, in schema order (`.null` for none).
  let written: [FieldValue]
  let createdAt: Date
  let updatedAt: Date
  let ownerID: String
  let sharingScope: SharingScope
  let deletion: StampedValue?

  /// The view of a component, or nil when its members do not yet say enough to show it (a
  /// field without a default that no member has a register for: its creation has not
  /// arrived).
  /// - Parameters:
  ///   - keeper: the smallest id of the component (perhaps a record whose own state has
  ///     not arrived yet: an edge names it).
  ///   - members: the states the component's records have here, sorted by id.
  init?(keeper: UUID, _ members: [RecordState]) {
    guard let first = members.first else { return nil }
    let kind = first.kind
    let schema = kind.schema
    var createdAt = first.createdAt, updatedAt = first.updatedAt
    var ownerID = first.ownerID, sharingScope = first.sharingScope
    var existence = first[RecordState.existsField]
    for member in members.dropFirst() {
      createdAt = min(createdAt, member.createdAt)
      updatedAt = max(updatedAt, member.updatedAt)
      let memberExistence = member[RecordState.existsField]
      // The entity's owner is the one that came with its highest existence register, as
      // within one record's state.
      if RecordState.ownerWins((memberExistence, member.ownerID), over: (existence, ownerID)) { ownerID = member.ownerID }
      if member.sharingScope.rawValue > sharingScope.rawValue { sharingScope = member.sharingScope }
      if let memberExistence { existence = RecordState.join(existence, memberExistence) }
    }
    // One member (most entities) needs no choosing among registers.
    guard let written = members.count == 1 ? Self.fields(of: first, schema) : Self.fields(of: members, schema) else { return nil }
    self.kind = kind
    self.keeper = keeper
    self.written = written
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.ownerID = ownerID
    self.sharingScope = sharingScope
    self.deletion = existence?.value == .bool(false) ? existence : nil
  }

  /// The member whose identity fields the entity shows: the one whose key register is
  /// highest, or when no member holds one (a weekly list of a build that knew no list
  /// keys), the one holding the highest identity register. Members come sorted by id, so
  /// equal registers pick the same member everywhere. Nil for a kind without a key.
  static func identitySource(_ members: [RecordState], _ schema: EntitySchema) -> RecordState? {
    guard let keyField = schema.semanticKeyField else { return nil }
    for names in [[keyField], schema.identityFields] {
      var best: StampedValue?
      var source: RecordState?
      for member in members {
        for name in names {
          guard let value = member[name] else { continue }
          let joined = RecordState.join(best, value)
          if joined != best {
            best = joined
            source = member
          }
        }
      }
      if let source { return source }
    }
    return nil
  }

  /// The key field's position and the key `source`'s identity fields give, for a unique kind.
  private static func shownKey(of source: RecordState?, _ schema: EntitySchema) -> (position: Int, key: String)? {
    guard let source, let keyField = schema.semanticKeyField, let position = schema.fields.firstIndex(where: { $0.name == keyField }),
      let key = SharedKey(source)?.key
    else { return nil }
    return (position, key)
  }

  /// The merged field values of several members, or nil when a required field has none.
  private static func fields(of members: [RecordState], _ schema: EntitySchema) -> [FieldValue]? {
    var written = [FieldValue](repeating: .null, count: schema.fields.count)
    let group = schema.identityFields
    let groupSource = identitySource(members, schema)
    // A source that holds every required field its key is computed from gives the whole
    // group: a field of it that it lacks shows the field's default, as its key reads it.
    let whole = groupSource.map { source in SharedKey.holdsKeyInputs(schema) { source[$0]?.value } } ?? false
    let key = shownKey(of: groupSource, schema)
    for (position, field) in schema.fields.enumerated() {
      if let key, position == key.position {
        written[position] = .text(key.key)
        continue
      }
      if let source = groupSource, group.contains(field.name) {
        if let value = source[field.name]?.value {
          written[position] = value
          continue
        }
        if whole {
          guard let fallback = field.defaultValue ?? (field.isOptional ? .null : nil) else { return nil }
          written[position] = fallback
          continue
        }
      }
      var best: StampedValue?
      for member in members {
        if let value = member[field.name] { best = RecordState.join(best, value) }
      }
      if let best, !best.value.isNull {
        written[position] = best.value
      } else if best == nil, let value = field.defaultValue {
        written[position] = value
      } else if !field.isOptional, best == nil {
        return nil
      }
    }
    return written
  }

  /// ``fields(of:_:)`` of one member: each register's value (a written null shows as
  /// null, not as the field's default).
  private static func fields(of member: RecordState, _ schema: EntitySchema) -> [FieldValue]? {
    var written: [FieldValue] = []
    written.reserveCapacity(schema.fields.count)
    let key = shownKey(of: member, schema)
    for (position, field) in schema.fields.enumerated() {
      if let key, position == key.position {
        written.append(.text(key.key))
      } else if let value = member[field.name] {
        written.append(value.value)
      } else if let value = field.defaultValue {
        written.append(value)
      } else if field.isOptional {
        written.append(.null)
      } else {
        return nil
      }
    }
    return written
  }

  /// The row to store for the keeper, with references resolved by `shownKeeper` (the
  /// keeper of a target's component when that component is shown, else nil), and its status.
  func row(resolving shownKeeper: (EntityKind, UUID) throws -> UUID?) rethrows -> (record: Record, status: Status) {
    var fields = written
    var hidden = false
    for (position, field) in kind.schema.fields.enumerated() {
      guard let target = field.type.referencedKind else { continue }
      switch fields[position] {
      case .reference(let id):
        if let resolved = try shownKeeper(target, id) {
          fields[position] = .reference(resolved)
        } else if field.isOptional && field.deleteRule == .nullify {
          fields[position] = .null
        } else {
          hidden = true
        }
      case .referenceList(let ids):
        var seen = Set<UUID>()
        var resolved: [UUID] = []
        for id in ids {
          if let keeper = try shownKeeper(target, id), seen.insert(keeper).inserted { resolved.append(keeper) }
        }
        fields[position] = .referenceList(resolved)
      default:
        continue
      }
    }
    let status: Status
    if let deletion {
      status = .deleted(at: Date(timeIntervalSince1970: Double(deletion.stamp.time) / 1000))
    } else {
      status = hidden ? .hidden : .live
    }
    var meta = RecordMetadata(id: keeper, createdAt: createdAt, updatedAt: updatedAt, ownerID: ownerID, sharingScope: sharingScope)
    switch status {
    case .live: break
    case .deleted(let date): meta.deletedAt = date
    case .hidden: meta.deletedAt = updatedAt
    }
    return (Record(kind: kind, meta: meta, values: fields), status)
  }

  /// The written reference ids of the view's relationships, by target kind.
  var writtenReferences: [(kind: EntityKind, id: UUID)] {
    var references: [(kind: EntityKind, id: UUID)] = []
    for (field, value) in zip(kind.schema.fields, written) {
      guard let target = field.type.referencedKind else { continue }
      switch value {
      case .reference(let id): references.append((target, id))
      case .referenceList(let ids): references.append(contentsOf: ids.map { (target, $0) })
      default: continue
      }
    }
    return references
  }
}
