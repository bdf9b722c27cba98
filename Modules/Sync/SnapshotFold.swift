import Foundation
import Model

/// A household's replicated states joined up to a position of its log: what a device that
/// pulled and joined every batch up to there holds (Docs/SYNC.md, "Snapshots").
///
/// The server makes it from its log with the join the devices use (`RecordState.join`),
/// batch after batch and incrementally: a fold resumed from a snapshot's pages takes the
/// batches after its position. It folds what a device of this version would join and
/// nothing else: each change is checked with ``ChangeRules`` as a device checks it on pull
/// and left out when it breaks them for good (the device sets such a change aside); an
/// unreadable batch and a retirement notice add nothing. It stops before a batch it cannot
/// fold as a device would: one of a newer schema (a device holds it until an upgrade) or a
/// change whose stamp lies ahead of the rules' clock (a device waits for it).
///
/// ```swift
/// var fold = SnapshotFold()
/// for entry in log where fold.fold(entry, rules: ChangeRules(now: Date())) == .folded {}
/// let pages = fold.pages(changesPerPage: 2_000)
/// ```
public struct SnapshotFold: Sendable {
  /// The log position the states are joined up to (0: nothing folded).
  public private(set) var position: Int64
  /// The highest schema version among the folded batches (1 before any): a device whose
  /// schema is older holds such batches, so it cannot start from this snapshot.
  public private(set) var schemaVersion: Int
  private var states: [RecordKey: RecordState]

  /// An empty fold, at position 0.
  public init() {
    position = 0
    schemaVersion = 1
    states = [:]
  }

  /// A fold resumed from a snapshot's pages (``pages(changesPerPage:)``) at `position`.
  public init(position: Int64, schemaVersion: Int, pages: [ChangeBatch]) {
    self.position = position
    self.schemaVersion = schemaVersion
    states = [:]
    for change in pages.lazy.flatMap(\.changes) { join(change) }
  }

  /// How many records the states describe.
  public var recordCount: Int { states.count }

  /// What ``SnapshotFold/fold(_:rules:schemaVersion:)`` did with an entry.
  public enum Outcome: Sendable, Hashable {
    /// Joined (or, for an entry that adds nothing, passed): the position is the entry's.
    case folded
    /// Not folded, and no later entry may be: the fold stays at the entry before it.
    case stopped(reason: String)
  }

  /// Folds the log entry after ``position`` into the states. An entry of any other
  /// sequence stops the fold (a log read out of order).
  public mutating func fold(_ entry: CloudEntry, rules: ChangeRules, schemaVersion known: Int = ChangeBatchCoding.schemaVersion)
    -> Outcome
  {
    guard entry.sequence == position + 1 else {
      return .stopped(reason: "entry \(entry.sequence) does not follow position \(position)")
    }
    if let held = entry.held { return .stopped(reason: "batch \(entry.sequence) is held: \(held.reason)") }
    let batch = entry.batch
    guard entry.damage == nil, batch.retiredSequence == nil, ChangeRules.headerProblem(batch) == nil else {
      position = entry.sequence
      return .folded
    }
    guard batch.schemaVersion <= known else {
      return .stopped(reason: "batch \(entry.sequence) is schema v\(batch.schemaVersion), newer than v\(known)")
    }
    var kept: [RecordChange] = []
    kept.reserveCapacity(batch.changes.count)
    for change in batch.changes {
      guard let violation = rules.violation(in: change, of: batch) else {
        kept.append(change)
        continue
      }
      if violation.isTemporary { return .stopped(reason: "batch \(entry.sequence): \(violation)") }
    }
    for change in kept { join(change) }
    position = entry.sequence
    schemaVersion = max(schemaVersion, batch.schemaVersion)
    return .folded
  }

  /// Joins one change into its record's state, its texts in NFC as a device joins them.
  private mutating func join(_ change: RecordChange) {
    let incoming = RecordState(change.canonical)
    let key = RecordKey(kind: change.kind, id: change.id)
    if states[key]?.join(incoming) == nil { states[key] = incoming }
  }

  /// The states as batches of at most `changesPerPage` changes (each a record's whole
  /// state, ``RecordChange`` of every register), in record order, with no more values per
  /// page than a batch may hold (`RecordBudget.maximumBatchBytes`): the pages a snapshot is
  /// kept and served in. A page's id is `snapshot:<position>:<page>` and its replica
  /// `snapshot`; its stamps are those of the writes, of any replica.
  public func pages(changesPerPage: Int) -> [ChangeBatch] {
    let limit = max(1, min(changesPerPage, ChangeRules.maximumChanges))
    var pages: [ChangeBatch] = []
    var changes: [RecordChange] = []
    var bytes = 0
    func close() {
      pages.append(
        ChangeBatch(
          id: "snapshot:\(position):\(pages.count)", replica: Self.replica, schemaVersion: schemaVersion, changes: changes))
      changes = []
      bytes = 0
    }
    for key in states.keys.sorted() {
      guard let change = states[key]?.wholeChange else { continue }
      let cost = ChangeRules.cost(of: change).bytes
      if !changes.isEmpty, changes.count >= limit || bytes + cost > RecordBudget.maximumBatchBytes { close() }
      changes.append(change)
      bytes += cost
    }
    if !changes.isEmpty || pages.isEmpty { close() }
    return pages
  }

  /// The replica every snapshot page names: no device's (a device's pushes name its own).
  public static let replica = "snapshot"
}
