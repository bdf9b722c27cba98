public import Foundation

/// The body of `GET /v1/snapshot`: one page of the household's snapshot, its joined record
/// states at a log position, as a batch in `ChangeBatchCoding`'s binary form (base64).
public struct SnapshotMessage: Codable, Sendable, Hashable {
  /// The log position the snapshot's states are joined up to: a device that joins every
  /// page pulls from here.
  public let position: Int64
  /// The highest schema version among the batches folded into it.
  public let schemaVersion: Int
  /// This page's place, from 0.
  public let page: Int
  /// How many pages the snapshot has.
  public let pageCount: Int
  /// How many records the whole snapshot holds.
  public let records: Int
  /// The newest sequence in the log when the page was read.
  public let latestSequence: Int64
  /// The page: a batch whose changes are whole record states.
  public let batch: Data

  public init(position: Int64, schemaVersion: Int, page: Int, pageCount: Int, records: Int, latestSequence: Int64, batch: Data) {
    self.position = position
    self.schemaVersion = schemaVersion
    self.page = page
    self.pageCount = pageCount
    self.records = records
    self.latestSequence = latestSequence
    self.batch = batch
  }
}
