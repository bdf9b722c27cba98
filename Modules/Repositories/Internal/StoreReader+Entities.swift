import Foundation
import Model
import Persistence

extension StoreReader {
  /// The live entity with this id, or nil.
  func entity<E: Entity>(_ type: E.Type, id: UUID) throws -> E? {
    try liveRecord(E.kind, id: id).map { try E(record: $0) }
  }

  /// Live entities with this semantic key, smallest id first.
  func entities<E: Entity>(_ type: E.Type, key: String) throws -> [E] {
    try records(E.kind, semanticKey: key).map { try E(record: $0) }
  }

  /// Entities matching a query.
  func entities<E: Entity>(_ type: E.Type, _ query: RecordQuery) throws -> [E] {
    try fetch(query).map { try E(record: $0) }
  }

  /// An id for a new record of a unique kind: the name-based id of its key, or — when a
  /// record already holds that id (deleted, or renamed away) — the first free id of the
  /// same key's later generations. Every replica computes the same sequence, so two
  /// devices re-creating a deleted "Produce" still agree on the id.
  func freeDeterministicID(_ kind: EntityKind, key: String) throws -> UUID {
    var id = DeterministicID.make(kind: kind, semanticKey: key)
    var generation = 1
    while try record(kind, id: id) != nil {
      generation += 1
      id = DeterministicID.make(kind: kind, semanticKey: key + "#\(generation)")
    }
    return id
  }
}

extension StoreWriter {
  /// Inserts an entity's record.
  func insert<E: Entity>(_ entity: E) throws {
    try insertRecord(entity.record)
  }

  /// Writes an entity's new state, stamping `updatedAt` when anything changed.
  func save<E: Entity>(_ entity: E, at date: Date) throws {
    var record = entity.record
    if let old = try self.record(E.kind, id: entity.id), old != record {
      record.meta.updatedAt = date
      try updateRecord(record)
    }
  }
}
