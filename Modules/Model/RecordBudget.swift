/// What one record and one batch of changes may cost once expanded: the bounds that hold
/// where the cost is spent, whatever form the values travel in.
///
/// The batch format writes each string once and refers to it again, so a list of 2,000
/// references to one long paragraph is a few kilobytes on the wire; every value rule
/// (``ValueRules``) holds for each item, yet checking, storing, indexing and writing that
/// list as JSON costs its expanded size on every device. These bounds are on that size:
/// the stores hold every record to ``maximumRecordBytes`` (so no device writes a record the
/// others refuse), and the sync rules hold each pulled or pushed change to it and each batch
/// to ``maximumBatchBytes`` and the merge-edge bounds. Sizes are counted from the values as
/// they are held (a string's UTF-8 length is known without reading it), so a check never
/// expands more than it bounds.
///
/// ```swift
/// if RecordBudget.bytes(of: record.values) > RecordBudget.maximumRecordBytes { … }
/// ```
public enum RecordBudget {
  /// The most bytes one record's values may hold, expanded: 1 MiB. A long recipe is tens
  /// of kilobytes.
  public static let maximumRecordBytes = 1 << 20
  /// The most bytes the values of one batch's changes may hold, expanded: 16 MiB (a device
  /// pushes at most 500 records a batch).
  public static let maximumBatchBytes = 16 << 20
  /// The most merge edges one change may carry: a record is merged into one keeper, and
  /// into a few more only when keepers are merged in turn.
  public static let maximumMergeEdgesPerChange = 16
  /// The most merge edges one batch may carry.
  public static let maximumMergeEdgesPerBatch = 1_000

  /// The expanded size of a value in bytes: a text's UTF-8 length, a list's items summed,
  /// 16 for an id, 8 for a number, a flag or a date, 0 for null.
  public static func bytes(of value: FieldValue) -> Int {
    switch value {
    case .null: 0
    case .text(let text): text.utf8.count
    case .integer, .real, .timestamp, .bool: 8
    case .reference: 16
    case .textList(let texts): texts.reduce(0) { $0 + $1.utf8.count }
    case .referenceList(let ids): 16 * ids.count
    }
  }

  /// The expanded size of several values.
  public static func bytes(of values: some Sequence<FieldValue>) -> Int {
    values.reduce(0) { $0 + bytes(of: $1) }
  }

  /// Why values of `bytes` expanded bytes are too many for one record, or nil.
  public static func recordProblem(bytes: Int) -> String? {
    guard bytes > maximumRecordBytes else { return nil }
    return "holds \(bytes) bytes of values once expanded; a record may hold at most \(maximumRecordBytes)"
  }
}
