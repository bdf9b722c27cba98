public import Foundation
import Sync
import SyncWire

/// Makes a household's snapshots from its log (Docs/SERVER.md, "Snapshots"): the server,
/// never a device, folds the batches it stored into joined states with the join the
/// devices use (`SnapshotFold`), so a device trusts a snapshot as much as the log it
/// comes from, and checks it like a pulled batch.
///
/// A snapshot is made incrementally, the batches since the last one folded into it, at the
/// position where the fold stops: the log's end, or before the first batch no device of the
/// server's schema could join yet (a newer schema's, a stamp ahead of the clock).
///
/// ```swift
/// let maker = SnapshotMaker(storage: storage, configuration: configuration)
/// let header = try await maker.make(of: household.id, now: Date())
/// ```
public struct SnapshotMaker: Sendable {
  /// The log's growth after a snapshot before the next is made, by default: 1,000 batches.
  public static let defaultInterval = 1_000
  /// The interval's bounds: from 1 batch to 10⁷.
  public static let intervals = 1...10_000_000
  /// The most records in a page of a snapshot, by default.
  public static let defaultPageRecords = 2_000

  public let storage: any HouseholdStorage & SnapshotStore
  public let configuration: ServerConfiguration

  public init(storage: any HouseholdStorage & SnapshotStore, configuration: ServerConfiguration) {
    self.storage = storage
    self.configuration = configuration
  }

  /// The household's newest snapshot, made first when the log has grown by
  /// ``ServerConfiguration/snapshotInterval`` batches since it (or holds that many and the
  /// household has none); nil while the log is shorter.
  public func current(of household: Int64, now: Date) async throws -> SnapshotHeader? {
    let latest = try await storage.snapshots(of: household).last
    let end = try await storage.latestSequence(of: household)
    let interval = Int64(min(max(configuration.snapshotInterval, Self.intervals.lowerBound), Self.intervals.upperBound))
    guard end - (latest?.position ?? 0) >= interval else { return latest }
    return try await make(of: household, now: now)
  }

  /// Folds the batches after the household's newest snapshot (the newest at or before
  /// `limit`, when given) into it, up to `limit`, and stores the result as a new snapshot;
  /// that snapshot as it was when the fold could not move (nil when there is none).
  /// ``LogCompactor`` makes one at the position compaction may reach.
  /// - Throws: ``ServerError`` `500 snapshot-damaged` when a stored page cannot be read.
  @discardableResult
  public func make(of household: Int64, now: Date, through limit: Int64 = .max) async throws -> SnapshotHeader? {
    let previous = try await storage.snapshots(of: household).last { $0.position <= limit }
    var fold = SnapshotFold()
    if let previous {
      var pages: [ChangeBatch] = []
      for index in 0..<previous.pageCount {
        guard let bytes = try await storage.snapshotPage(of: household, position: previous.position, page: index),
          let page = try? ChangeBatchCoding.decode(bytes)
        else {
          throw ServerError.internalFailure(
            "snapshot-damaged", "page \(index) of household \(household)'s snapshot at \(previous.position) cannot be read")
        }
        pages.append(page)
      }
      fold = SnapshotFold(position: previous.position, schemaVersion: previous.schemaVersion, pages: pages)
    }
    let rules = ChangeRules(now: now, allowedSkew: configuration.allowedSkew)
    let location = "household \(household)"
    folding: while true {
      let entries = try await storage.batches(of: household, after: fold.position, limit: Int(min(1_000, limit - fold.position)))
      guard !entries.isEmpty else { break }
      for pulled in entries {
        guard pulled.sequence <= limit else { break folding }
        let entry = ChangeBatchCoding.entry(sequence: pulled.sequence, bytes: pulled.batch, location: location)
        if case .stopped = fold.fold(entry, rules: rules, schemaVersion: configuration.knownSchemaVersion) { break folding }
      }
    }
    guard fold.position > (previous?.position ?? 0) else { return previous }
    let pageRecords = min(max(configuration.snapshotPageRecords, 1), ChangeRules.maximumChanges)
    let pages = fold.pages(changesPerPage: pageRecords).map(ChangeBatchCoding.encode)
    let header = SnapshotHeader(
      position: fold.position, schemaVersion: fold.schemaVersion, pageCount: pages.count, records: fold.recordCount,
      bytes: pages.reduce(0) { $0 + Int64($1.count) }, createdAt: now)
    try await storage.saveSnapshot(header, pages: pages, of: household)
    return header
  }
}
