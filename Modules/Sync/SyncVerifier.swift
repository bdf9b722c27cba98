public import Foundation
public import Model
public import Persistence

/// Checks that a store's tables are the view of its replicated state, and rewrites them
/// when they are not: what `sync verify` runs, like `PRAGMA integrity_check` after a crash
/// or an upgrade (Docs/DESIGN.md §6, invariant 8).
///
/// The view is computed again from the states alone, by the plain rule of Docs/SYNC.md
/// (`ReferenceView`), not by the incremental path that maintains the tables. Records with
/// a local change no sync has stamped yet are left out: their states do not hold that
/// change until the next sync (which stamps it even offline).
///
/// ```swift
/// let verification = try SyncVerifier(store: store).verify()
/// if !verification.isClean { try SyncVerifier(store: store).repair() }
/// ```
public struct SyncVerifier: Sendable {
  /// The store checked.
  public let store: any Store

  /// A verifier of `store`.
  public init(store: any Store) {
    self.store = store
  }

  /// Compares the tables with the view of the states; changes nothing.
  public func verify() throws -> SyncVerification {
    try store.read { reader in
      let view = try ReferenceView.read(reader)
      let rows = try ReferenceView.tableRows(reader)
      let unstamped = try Self.unstampedRecords(reader)
      let indexes = try view.indexDifferences(reader).map(Self.difference)
      return SyncVerification(
        differences: view.differences(from: rows, skipping: unstamped) + indexes,
        checked: Set(view.expected.keys).union(rows.keys).count, unstamped: unstamped.count)
    }
  }

  /// Rewrites the rows that differ from the view of the states, in one transaction of
  /// origin `sync` (nothing is logged as a user's write, nothing is pushed), and reports
  /// what it found and rewrote.
  /// - Parameter date: when rows that stop being live are set aside (default: the store's clock).
  /// - Throws: ``SyncVerifyError/unstampedChanges(_:)`` while a local change is not yet in
  ///   the states: rewriting its row from them would undo it.
  @discardableResult
  public func repair(at date: Date? = nil) throws -> SyncVerification {
    try store.write(origin: .sync) { writer in
      let unstamped = try Self.unstampedRecords(writer)
      guard unstamped.isEmpty else { throw SyncVerifyError.unstampedChanges(unstamped.count) }
      let view = try ReferenceView.read(writer)
      let rows = try ReferenceView.tableRows(writer)
      let entries = try view.indexDifferences(writer)
      for entry in entries { try writer.setMetadata(entry.missing ? "" : nil, forKey: entry.key) }
      let rowDifferences = view.differences(from: rows)
      let differing = Set(rowDifferences.map { RecordKey(kind: $0.kind, id: $0.id) })
      let differences = rowDifferences + entries.map(Self.difference)
      let now = date ?? store.clock()
      for (key, write) in view.repairs(differing.sorted()) {
        switch (write, rows[key]) {
        case (.row(let record)?, let existing?):
          try writer.updateRecord(record, replacing: existing)
        case (.row(let record)?, nil):
          try writer.insertRecord(record)
        case (_, let existing?) where existing.meta.isLive:
          try writer.tombstoneRecord(key.kind, id: key.id, at: now)
        default:
          continue
        }
      }
      var verification = SyncVerification(
        differences: differences, checked: Set(view.expected.keys).union(rows.keys).count, unstamped: 0)
      verification.repaired = Set(differences.map { RecordKey(kind: $0.kind, id: $0.id) }).count
      return verification
    }
  }

  /// An index entry that is missing or should not be there, as a difference of its record:
  /// field `@sync.edge` or `@sync.ref`.
  static func difference(_ entry: ReferenceView.IndexEntry) -> ViewDifference {
    let index = entry.key.hasPrefix(ReplicaKeys.edgePrefix) ? "@sync.edge" : "@sync.ref"
    return ViewDifference(
      kind: entry.owner.kind, id: entry.owner.id, field: index, table: entry.missing ? "no entry" : "an entry (\(entry.what))",
      expected: entry.missing ? "an entry (\(entry.what))" : "no entry")
  }

  /// The records named by a local change after the stamped position, or by a merge not yet
  /// stamped.
  static func unstampedRecords(_ reader: any StoreReader) throws -> Set<RecordKey> {
    var records: Set<RecordKey> = []
    var after = try reader.syncInteger(ReplicaKeys.stamped)
    while true {
      let page = try reader.changes(after: after, limit: 1_000)
      guard let last = page.last else { break }
      for change in page { records.insert(RecordKey(kind: change.kind, id: change.id)) }
      after = last.sequence
    }
    for merge in try reader.pendingMerges() {
      records.insert(RecordKey(kind: merge.kind, id: merge.loser))
      records.insert(RecordKey(kind: merge.kind, id: merge.keeper))
    }
    return records
  }
}

/// What ``SyncVerifier`` found, and after a repair how many records it rewrote.
public struct SyncVerification: Sendable, Hashable {
  /// Each way a record's row differs from the view, in record order.
  public var differences: [ViewDifference]
  /// How many records were compared (every record a state, an edge or a row names).
  public var checked: Int
  /// Records left out: a local change no sync has stamped into the states yet.
  public var unstamped: Int
  /// Records whose row ``SyncVerifier/repair(at:)`` rewrote.
  public var repaired = 0

  /// Whether the tables are the view.
  public var isClean: Bool { differences.isEmpty }

  /// How many records differ.
  public var differingRecords: Int { Set(differences.map { "\($0.kind.rawValue)/\($0.id)" }).count }
}

/// One way a record's row differs from the view of the replicated state.
public struct ViewDifference: Sendable, Hashable, CustomStringConvertible {
  /// The kind of the record.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID
  /// A schema field, or what of the row: ``rowField`` (whether it is shown), `@createdAt`,
  /// `@updatedAt`, `@deletedAt`, `@ownerID`, `@sharingScope`; or a local index entry of the
  /// record: `@sync.edge` (a merge edge), `@sync.ref` (a dependency on a reference's target).
  public let field: String
  /// What the table holds, as text.
  public let table: String
  /// What the view of the states shows, as text.
  public let expected: String

  /// The `field` of a difference in whether the record is shown (live, tombstone, no row).
  public static let rowField = "@row"

  /// A line naming the record, the field, and both values.
  public var description: String { "\(kind.rawValue) \(id.lowercaseText) \(field): table \(table), view \(expected)" }

  /// A value as a difference shows it: texts quoted (a text not in NFC marked so, since it
  /// looks like its NFC form), lists bracketed, instants to the millisecond.
  static func text(_ value: FieldValue) -> String {
    switch value {
    case .null: "null"
    case .text(let text): marked("\"\(text)\"")
    case .real(let number): String(number)
    case .timestamp(let date): text(date)
    case .textList(let texts): "[" + texts.map { marked("\"\($0)\"") }.joined(separator: ", ") + "]"
    case .referenceList(let ids): "[" + ids.map(\.lowercaseText).joined(separator: ", ") + "]"
    default: value.displayText
    }
  }

  /// `text`, followed by " (not NFC)" when it is not in the one form stores hold
  /// (`Model/ValueRules/canonical(_:)`): "Crème" in two forms reads the same on a screen.
  static func marked(_ text: String) -> String {
    ValueRules.isCanonical(text) ? text : text + " (not NFC)"
  }

  static func text(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}

/// Why ``SyncVerifier`` refused.
public enum SyncVerifyError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Records with local changes that no sync has stamped into the states yet.
  case unstampedChanges(Int)

  /// A message saying what to do before a repair.
  public var description: String {
    switch self {
    case .unstampedChanges(let count):
      "\(count) record(s) have local changes not yet in the sync state; sync first, then repair"
    }
  }
}
