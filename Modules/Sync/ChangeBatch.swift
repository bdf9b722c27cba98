public import Foundation
public import Model

/// A field value with the stamp of the write that produced it.
public struct StampedValue: Sendable, Hashable, Codable {
  public let value: FieldValue
  public let stamp: Stamp

  public init(value: FieldValue, stamp: Stamp) {
    self.value = value
    self.stamp = stamp
  }
}

/// Registers of one record, as a replica sends them: each field's value as written with
/// its stamp.
///
/// Besides schema fields, `fields` may hold pseudo-fields: ``RecordChange/existsField``
/// (`true` written by a create, `false` by a delete) and one
/// ``RecordChange/mergeFieldPrefix`` entry per merge edge (`@merge:<keeper id>`, value the
/// keeper's id). Batches pushed by earlier versions carry ``RecordChange/deletedField`` and
/// ``RecordChange/redirectField`` instead, which are still read.
public struct RecordChange: Sendable, Hashable, Codable {
  public static let existsField = "@exists"
  public static let mergeFieldPrefix = "@merge:"
  /// Earlier versions: the record was deleted (value: the deletion time).
  public static let deletedField = "@deleted"
  /// Earlier versions: the record was merged into another (value: the keeper's id).
  public static let redirectField = "@redirect"

  public let kind: EntityKind
  public let id: UUID
  public let createdAt: Date
  public let updatedAt: Date
  public let ownerID: String
  public let sharingScope: SharingScope
  public let fields: [String: StampedValue]

  public init(
    kind: EntityKind, id: UUID, createdAt: Date, updatedAt: Date, ownerID: String, sharingScope: SharingScope,
    fields: [String: StampedValue]
  ) {
    self.kind = kind
    self.id = id
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.ownerID = ownerID
    self.sharingScope = sharingScope
    self.fields = fields
  }
}

/// What one push sends: a replica's changes, with an id that makes re-sending it after an
/// interrupted push harmless (the cloud keeps a batch id once).
public struct ChangeBatch: Sendable, Hashable, Codable {
  public let id: String
  public let replica: String
  /// The schema version of the replica that wrote the batch.
  public let schemaVersion: Int
  public let changes: [RecordChange]

  public init(id: String, replica: String, schemaVersion: Int, changes: [RecordChange]) {
    self.id = id
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.changes = changes
  }
}
