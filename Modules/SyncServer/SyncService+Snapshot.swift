import Foundation
import Hummingbird
import Sync
import SyncWire

extension SyncService {
  /// `GET /v1/snapshot?position=&page=`: a page of the household's snapshot
  /// (``SnapshotMaker``). Without a position, the newest snapshot, made first when the log
  /// grew by ``ServerConfiguration/snapshotInterval`` batches since the last one; `404
  /// no-snapshot` while the log is shorter (the device pulls it whole), `410
  /// snapshot-gone` for a position or page no longer kept (the device starts again).
  func snapshot(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    let query = request.uri.queryParameters
    var page = 0
    if let text = query.get(Wire.Query.page) {
      guard let value = Int(text), (0..<SnapshotPage.maximumPages).contains(value) else {
        throw ServerError.badRequest("page-invalid", "page must be a whole number from 0 to \(SnapshotPage.maximumPages - 1)")
      }
      page = value
    }
    var position: Int64?
    if let text = query.get(Wire.Query.position) {
      guard let value = Int64(text), value >= 1 else {
        throw ServerError.badRequest("position-invalid", "position must be a whole number from 1: a snapshot's 'position'")
      }
      position = value
    }
    guard let storage = storage as? any HouseholdStorage & SnapshotStore else { throw ServerError.noSnapshot }
    let household = credential.householdID
    let header: SnapshotHeader
    if let position {
      guard let kept = try await stored({ try await storage.snapshots(of: household) }).first(where: { $0.position == position }) else {
        throw ServerError.snapshotGone(position: position, page: page)
      }
      header = kept
    } else {
      // Folding the log may take longer than one storage call may: it is not held to the
      // storage timeout (each of its reads is a storage call of its own).
      let maker = SnapshotMaker(storage: storage, configuration: configuration)
      guard let newest = try await maker.current(of: household, now: configuration.clock()) else { throw ServerError.noSnapshot }
      header = newest
    }
    guard page < header.pageCount,
      let bytes = try await stored({ [page] in try await storage.snapshotPage(of: household, position: header.position, page: page) })
    else {
      throw ServerError.snapshotGone(position: header.position, page: page)
    }
    let latest = try await stored { try await storage.latestSequence(of: household) }
    return json(
      SnapshotMessage(
        position: header.position, schemaVersion: header.schemaVersion, page: page, pageCount: header.pageCount,
        records: header.records, latestSequence: latest, batch: bytes))
  }
}

extension ServerError {
  /// `404 no-snapshot`: the household has no snapshot (its log is short); pull the log.
  public static let noSnapshot = ServerError(
    .notFound, code: "no-snapshot", message: "the household has no snapshot: pull its log from the start")

  /// `410 snapshot-gone`: the snapshot at `position` (or its page) is no longer kept.
  public static func snapshotGone(position: Int64, page: Int) -> ServerError {
    ServerError(
      .gone, code: "snapshot-gone",
      message:
        "page \(page) of the snapshot at position \(position) is not kept (a newer snapshot replaced it): start again without a position")
  }
}
