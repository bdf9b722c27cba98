import Foundation
import Model
import Persistence

/// The rows of the records one view refresh reads, read a page at a time instead of one
/// query per record.
///
/// Only the refresh writes rows while it runs (`ViewUpdater`), and it forgets a row each
/// time it writes one, so the next read of that row goes to the store again: what this
/// returns is always what the store holds.
final class RowCache {
  let writer: any StoreWriter
  private var rows: [RecordKey: Record] = [:]
  private var missing: Set<RecordKey> = []
  /// Rows read earlier in the same transaction, before anything wrote a row (the
  /// stamping's), taken instead of reading them again.
  private var seeded: [RecordKey: Record] = [:]
  /// Rows read per query when many are asked for at once.
  static let pageSize = 500

  init(_ writer: any StoreWriter) {
    self.writer = writer
  }

  /// Reads the rows of these records that are not known yet, one query per kind and page.
  func preload(_ keys: some Sequence<RecordKey>) throws {
    var wanted: [EntityKind: [UUID]] = [:]
    for key in keys where rows[key] == nil && !missing.contains(key) {
      if let row = seeded.removeValue(forKey: key) {
        rows[key] = row
      } else {
        wanted[key.kind, default: []].append(key.id)
      }
    }
    for kind in wanted.keys.sorted(by: { $0.ordinal < $1.ordinal }) {
      let ids = wanted[kind] ?? []
      for start in stride(from: 0, to: ids.count, by: Self.pageSize) {
        let page = Array(ids[start..<min(start + Self.pageSize, ids.count)])
        // One id is read by the store's cached by-id query; many by one query for the page.
        let found = page.count == 1 ? try writer.record(kind, id: page[0]).map { [$0] } ?? [] : try writer.records(kind, ids: page)
        for record in found { rows[RecordKey(kind: kind, id: record.id)] = record }
        for id in page where rows[RecordKey(kind: kind, id: id)] == nil { missing.insert(RecordKey(kind: kind, id: id)) }
      }
    }
  }

  /// Rows the transaction read before anything in it wrote a row: the next reads take them
  /// from here.
  func seed(_ rows: [RecordKey: Record]) { seeded = rows }

  /// The rows these records have (a record without a row is left out).
  func rows(_ kind: EntityKind, _ ids: [UUID]) throws -> [Record] {
    let keys = ids.map { RecordKey(kind: kind, id: $0) }
    try preload(keys)
    return keys.compactMap { rows[$0] }
  }

  /// The record's row when it is live.
  func liveRow(_ kind: EntityKind, _ id: UUID) throws -> Record? {
    try rows(kind, [id]).first.flatMap { $0.meta.isLive ? $0 : nil }
  }

  /// Forgets every row read so far (between pages, so a sync of 100k records does not keep
  /// them all).
  func forgetAll() {
    rows = [:]
    missing = []
  }

  /// Forgets a row that was just written.
  func written(_ kind: EntityKind, _ id: UUID) {
    #if DEBUG
      if SyncMutation.active == .staleRowCache { return }
    #endif
    let key = RecordKey(kind: kind, id: id)
    rows[key] = nil
    seeded[key] = nil
    missing.remove(key)
  }
}
