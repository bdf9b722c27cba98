public import Foundation
public import Model

/// A field value with the stamp of the write that produced it.
public struct StampedValue: Sendable, Hashable, Codable {
  /// The value written.
  public let value: FieldValue
  /// The stamp of the write; the higher stamp wins a merge.
  public let stamp: Stamp

  /// A value with its write's stamp.
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
  /// The register of the record's existence (create, delete, re-create).
  public static let existsField = "@exists"
  /// The prefix of a merge edge's register; the keeper's id follows.
  public static let mergeFieldPrefix = "@merge:"
  /// Earlier versions: the record was deleted (value: the deletion time).
  public static let deletedField = "@deleted"
  /// Earlier versions: the record was merged into another (value: the keeper's id).
  public static let redirectField = "@redirect"

  /// The kind of the record.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID
  /// When the record was created.
  public let createdAt: Date
  /// When the record was last changed.
  public let updatedAt: Date
  /// The replica that owns the record.
  public let ownerID: String
  /// Who the record is shared with.
  public let sharingScope: SharingScope
  /// The registers changed, by field name, each with its stamped value.
  public let fields: [String: StampedValue]

  /// A record's change from its parts.
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
  /// The batch id, unique in the cloud's log.
  public let id: String
  /// The replica that wrote the batch.
  public let replica: String
  /// The schema version of the replica that wrote the batch.
  public let schemaVersion: Int
  /// The changed records.
  public let changes: [RecordChange]

  /// A batch of `changes` from `replica`.
  public init(id: String, replica: String, schemaVersion: Int, changes: [RecordChange]) {
    self.id = id
    self.replica = replica
    self.schemaVersion = schemaVersion
    self.changes = changes
  }
}
