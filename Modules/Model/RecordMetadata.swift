public import Foundation

/// Who may see a record. Carried and synced; not yet acted on.
public enum SharingScope: String, Sendable, Codable, Hashable, CaseIterable {
  case `private`
  case shared
}

/// The metadata every record carries, whatever its kind.
public struct RecordMetadata: Sendable, Hashable, Codable {
  /// The record's identity. For unique kinds a name-based UUID (see ``DeterministicID``).
  public var id: UUID
  public var createdAt: Date
  public var updatedAt: Date
  /// Set when the record is deleted: deleted records stay as tombstones so the delete syncs.
  public var deletedAt: Date?
  public var ownerID: String
  public var sharingScope: SharingScope

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
