import Foundation

/// One page of a cloud's snapshot: part of the household's joined states at a log
/// position (``SnapshotFold``), as a batch of whole record states.
///
/// A device with no place in the log (or one behind the log's start, once a server
/// compacted it) joins every page of a snapshot in one transaction, takes the snapshot's
/// position as its pull position and pulls the rest (``SyncEngine``). It trusts no page:
/// ``problem(expecting:of:pageCount:rules:)`` holds each to the rules of a pulled batch.
public struct SnapshotPage: Sendable, Hashable {
  /// The log position the snapshot's states are joined up to.
  public let position: Int64
  /// The highest schema version among the batches folded into it.
  public let schemaVersion: Int
  /// This page's place, from 0.
  public let page: Int
  /// How many pages the snapshot has.
  public let pageCount: Int
  /// The page's record states, as a batch (id `snapshot:<position>:<page>`).
  public let batch: ChangeBatch

  /// A page from its parts.
  public init(position: Int64, schemaVersion: Int, page: Int, pageCount: Int, batch: ChangeBatch) {
    self.position = position
    self.schemaVersion = schemaVersion
    self.page = page
    self.pageCount = pageCount
    self.batch = batch
  }

  /// The most pages a device reads of one snapshot: 10,000 pages of up to 10,000 records.
  public static let maximumPages = 10_000

  /// Why this page cannot be joined as page `page` of the snapshot at `position` with
  /// `pageCount` pages, or nil. A page holds what the rules of a pulled batch allow
  /// (``ChangeRules/sizeProblem(_:)``: changes, values once expanded, merge edges), each
  /// change keeps ``ChangeRules/snapshotViolation(in:schemaVersion:)``, and its header
  /// names the snapshot asked for.
  public func problem(expecting page: Int, of position: Int64?, pageCount: Int?, rules: ChangeRules) -> String? {
    if let position, self.position != position { return "page \(page) is of position \(self.position), not \(position)" }
    if let pageCount, self.pageCount != pageCount { return "page \(page) says \(self.pageCount) pages, not \(pageCount)" }
    guard self.page == page else { return "the answer is page \(self.page), not \(page)" }
    guard (position ?? self.position) >= 1 else { return "its position \(self.position) is not a place in a log" }
    guard (1...Self.maximumPages).contains(self.pageCount), page < self.pageCount else {
      return "it has \(self.pageCount) pages; a snapshot has 1 to \(Self.maximumPages)"
    }
    guard (1...ChangeBatchCoding.schemaVersion).contains(schemaVersion) else {
      return "its schema version \(schemaVersion) is not one this version reads"
    }
    if let problem = ChangeRules.sizeProblem(batch) { return "page \(page): \(problem)" }
    for (index, change) in batch.changes.enumerated() {
      if let violation = rules.snapshotViolation(in: change, schemaVersion: schemaVersion) {
        return "page \(page), record \(index): \(violation)"
      }
    }
    return nil
  }
}

extension ChangeRules {
  /// The first rule a record's joined state (a snapshot's, ``SnapshotPage``) breaks, or
  /// nil: the rules of a pulled change (values, names, dates, budgets, stamps within the
  /// clock, fields of `schemaVersion`), except that its stamps may be of any replica (its
  /// registers come from many devices' writes) and its key is not checked against its
  /// fields (registers of a unique kind's identity group may come from different writes;
  /// the view computes the key from the fields it shows, whatever the key register holds).
  public func snapshotViolation(in change: RecordChange, schemaVersion: Int) -> Violation? {
    if let violation = violation(in: change, stampsOf: nil) { return violation }
    if let (field, reason) = SchemaHistory.problem(in: change, schemaVersion: schemaVersion) {
      return Violation(code: .invalidValue, kind: change.kind, id: change.id, field: field, reason: reason)
    }
    return nil
  }
}
