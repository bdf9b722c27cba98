public import Foundation

/// Where the server keeps each household's snapshots: its joined record states at a log
/// position, in pages, as ``SnapshotMaker`` folds them from the log (Docs/SERVER.md,
/// "Snapshots"). A storage that conforms serves `GET /v1/snapshot`; one that does not
/// answers it `404 no-snapshot`, and every device pulls the whole log.
///
/// Backends: ``MemoryHouseholdStorage`` and `PostgresHouseholdStorage` (module
/// `SyncPostgres`). Promises the maker and the route rely on:
/// - ``saveSnapshot(_:pages:of:)`` stores a snapshot's header and every page at once, or
///   nothing; saving a position already stored changes nothing.
/// - A household keeps its newest snapshot and the one before it (a device paging through
///   the one before finishes it) and the oldest at or above its log's floor (the one at the
///   floor holds the compacted batches: Docs/SERVER.md, "Compaction"), and loses them with
///   the household.
public protocol SnapshotStore: Sendable {
  /// The household's kept snapshots, oldest first (none: empty).
  func snapshots(of household: Int64) async throws -> [SnapshotHeader]
  /// Page `page` of the household's snapshot at `position`, or nil when it keeps no such page.
  func snapshotPage(of household: Int64, position: Int64, page: Int) async throws -> Data?
  /// Stores a snapshot (``SnapshotHeader/pageCount`` pages, in order) and drops the
  /// household's snapshots older than the one before it, but for the oldest at or above the
  /// log's floor.
  func saveSnapshot(_ header: SnapshotHeader, pages: [Data], of household: Int64) async throws
}

/// A stored snapshot, without its pages.
public struct SnapshotHeader: Sendable, Hashable {
  /// The log position its states are joined up to.
  public let position: Int64
  /// The highest schema version among the batches folded into it.
  public let schemaVersion: Int
  /// How many pages it is kept in.
  public let pageCount: Int
  /// How many records it holds.
  public let records: Int
  /// Its pages' bytes, as stored.
  public let bytes: Int64
  /// When the server made it.
  public let createdAt: Date

  public init(position: Int64, schemaVersion: Int, pageCount: Int, records: Int, bytes: Int64, createdAt: Date) {
    self.position = position
    self.schemaVersion = schemaVersion
    self.pageCount = pageCount
    self.records = records
    self.bytes = bytes
    self.createdAt = createdAt
  }
}
