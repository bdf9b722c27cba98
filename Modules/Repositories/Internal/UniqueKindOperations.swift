import Foundation
import Model
import Persistence

/// Get-or-create, find, rename and delete for the unique kinds, written once over the
/// schema and a few per-kind closures.
struct UniqueKindOperations<E: Entity> {
  let context: RepositoryContext
  /// The semantic key of a cleaned name.
  let key: (String) -> String
  /// A new entity for a cleaned name and its key.
  let make: (RecordMetadata, String, String) -> E
  /// The entity under a new cleaned name and key.
  let renamed: (E, String, String) -> E
  /// Extra lookup when the key finds nothing (ingredient aliases).
  var fallback: ((String, any StoreReader) throws -> E?)? = nil

  var kind: EntityKind { E.kind }

  /// The live record for a name or id, or nil.
  func find(_ reference: String, in reader: any StoreReader) throws -> E? {
    if let id = UUID(uuidString: reference.trimmingCharacters(in: .whitespaces)) {
      return try reader.entity(E.self, id: id)
    }
    let name = try NameRules.clean(reference, for: kind)
    return try existing(key(name), in: reader)
  }

  func find(_ reference: String) throws -> E? {
    try context.read { try find(reference, in: $0) }
  }

  /// The live record for a name or id.
  /// - Throws: ``RepositoryError/notFound(_:_:)``.
  func require(_ reference: String, in reader: any StoreReader) throws -> E {
    guard let found = try find(reference, in: reader) else { throw RepositoryError.notFound(kind, reference) }
    return found
  }

  /// The existing record with this name's key, or a new one with the name-based id.
  /// - Parameter shaping: sets the fields a new record is created with (one insert, not an
  ///   insert and an update); an existing record is returned as it is.
  func getOrCreate(
    _ name: String, in writer: any StoreWriter, shaping: (inout E) throws -> Void = { _ in }
  ) throws -> (entity: E, created: Bool) {
    let (cleaned, semanticKey) = try cleanedAndKey(name)
    if let existing = try existing(semanticKey, in: writer) { return (existing, false) }
    // The name-based id is free unless a record once held it (deleted, or renamed away):
    // the insert tries it, and only when the store refuses it as a duplicate id is the
    // first free id of a later generation looked up. Looking first cost a SELECT by id
    // for every new name.
    var entity = make(context.newMeta(id: DeterministicID.make(kind: kind, semanticKey: semanticKey)), cleaned, semanticKey)
    try shaping(&entity)
    do {
      try writer.insert(entity)
      return (entity, true)
    } catch StoreError.duplicateID {
      var later = make(context.newMeta(id: try writer.freeDeterministicID(kind, key: semanticKey)), cleaned, semanticKey)
      try shaping(&later)
      try writer.insert(later)
      return (later, true)
    }
  }

  /// Outside a transaction, the existing record when the name has one — found in a read
  /// transaction, which takes no write lock — else ``getOrCreate(_:in:)`` in a write
  /// transaction. Most get-or-creates name a record that exists.
  /// - Parameter unchanged: whether the caller keeps an existing record as it is; when
  ///   it would change it, the write transaction finds it again and saves it.
  func existingOrWrite(
    _ name: String, unchanged: (E) -> Bool = { _ in true }, orWrite body: (any StoreWriter) throws -> E
  ) throws -> E {
    if !context.isBound {
      let (_, semanticKey) = try cleanedAndKey(name)
      if let existing = try context.read({ try existing(semanticKey, in: $0) }), unchanged(existing) {
        return existing
      }
    }
    return try context.write(body)
  }

  /// The cleaned name and its key.
  /// - Throws: ``RepositoryError`` for a bad name or one whose key is empty.
  private func cleanedAndKey(_ name: String) throws -> (cleaned: String, key: String) {
    let cleaned = try NameRules.clean(name, for: kind)
    let semanticKey = key(cleaned)
    guard !semanticKey.isEmpty else { throw RepositoryError.emptyName(kind) }
    return (cleaned, semanticKey)
  }

  /// The live record with this key (the smallest id, should a store hold several), or
  /// the fallback's. Only that record is decoded, here where `E` is concrete:
  /// `entities(_:key:)` decodes every record through a generic `map`.
  private func existing(_ semanticKey: String, in reader: any StoreReader) throws -> E? {
    if let record = try reader.records(kind, semanticKey: semanticKey).first { return try E(record: record) }
    return try fallback?(semanticKey, reader)
  }

  func all(in reader: any StoreReader) throws -> [E] {
    try reader.entities(E.self, RecordQuery(kind))
  }

  /// Renames a record, refusing a name whose key another live record holds.
  func rename(_ reference: String, to newName: String, in writer: any StoreWriter) throws -> E {
    let entity = try require(reference, in: writer)
    let cleaned = try NameRules.clean(newName, for: kind)
    let newKey = key(cleaned)
    guard !newKey.isEmpty else { throw RepositoryError.emptyName(kind) }
    let holder = try writer.entities(E.self, key: newKey).first { $0.id != entity.id } ?? fallback?(newKey, writer)
    if let holder, holder.id != entity.id {
      throw RepositoryError.renameCollision(
        kind, newName: cleaned, existingName: holder.record.displayText, existingID: holder.id
      )
    }
    let updated = renamed(entity, cleaned, newKey)
    try writer.save(updated, at: context.now())
    return try writer.entity(E.self, id: entity.id) ?? updated
  }

  /// Deletes a record by the schema's delete rules.
  func delete(_ reference: String, in writer: any StoreWriter) throws -> E {
    let entity = try require(reference, in: writer)
    try DeleteRules.delete(kind, id: entity.id, name: entity.record.displayText, in: writer, at: context.now())
    return entity
  }
}
