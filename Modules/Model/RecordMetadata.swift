public import Foundation

/// Who may see a record. Carried and synced; not yet acted on.
public enum SharingScope: String, Sendable, Codable, Hashable, CaseIterable {
  /// Seen by its owner only.
  case `private`
  /// Shared with the household.
  case shared
}

/// The metadata every record carries, whatever its kind.
public struct RecordMetadata: Sendable, Hashable, Codable {
  /// The record's identity. For unique kinds a name-based UUID (see ``DeterministicID``).
  public var id: UUID
  /// When the record was created.
  public var createdAt: Date
  /// When the record was last changed.
  public var updatedAt: Date
  /// Set when the record is deleted: deleted records stay as tombstones so the delete syncs.
  public var deletedAt: Date?
  /// The replica that owns the record.
  public var ownerID: String
  /// Who the record is shared with.
  public var sharingScope: SharingScope

  /// Metadata from its parts.
  public init(
    id: UUID,
    createdAt: Date,
    updatedAt: Date? = nil,
    deletedAt: Date? = nil,
    ownerID: String = RecordMetadata.localOwner,
    sharingScope: SharingScope = .private
  ) {
    self.id = id
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.deletedAt = deletedAt
    self.ownerID = ownerID
    self.sharingScope = sharingScope
  }

  /// The owner recorded on data created before any account is known.
  public static let localOwner = "local"

  /// Whether the record is live (not a tombstone).
  public var isLive: Bool { deletedAt == nil }
}
