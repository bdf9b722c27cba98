public import Foundation
public import Model

/// One entry of sync's record history: an opaque text sync wrote when a record's state
/// changed (``StoreWriter/appendSyncHistory(_:id:text:keepingPerRecord:)``), numbered in the
/// order the store received it.
///
/// The store keeps a bounded number of entries per record and in total and drops the
/// oldest first; sync decides what an entry holds and reads it back.
public struct SyncHistoryRow: Sendable, Hashable {
  /// Strictly increasing in the order entries were appended, starting at 1; entries dropped
  /// leave gaps.
  public let sequence: Int64
  /// The kind of the record the entry is about.
  public let kind: EntityKind
  /// The id of the record the entry is about.
  public let id: UUID
  /// What sync wrote, as it wrote it.
  public let text: String

  /// An entry as a store holds it.
  public init(sequence: Int64, kind: EntityKind, id: UUID, text: String) {
    self.sequence = sequence
    self.kind = kind
    self.id = id
    self.text = text
  }
}

/// A record that sync's history holds entries of.
public struct SyncHistoryRecord: Sendable, Hashable {
  /// The record's kind.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID

  /// The record `id` of `kind`.
  public init(kind: EntityKind, id: UUID) {
    self.kind = kind
    self.id = id
  }
}
