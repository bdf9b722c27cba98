import AsyncHTTPClient
import Foundation
import NIOHTTP1
public import Sync
import SyncWire

extension HTTPCloud {
  /// Page `page` of the household's snapshot at `position` (nil: the newest) from
  /// `GET /v1/snapshot`; nil when the server keeps none (`404 no-snapshot`, or a server
  /// without the route) or no longer keeps that one (`410 snapshot-gone`).
  /// - Throws: `CloudError/damaged(location:reason:)` when the page is not a batch.
  public func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage? {
    var path = Wire.Path.snapshot + "?\(Wire.Query.page)=\(page)"
    if let position { path += "&\(Wire.Query.position)=\(position)" }
    let response = try requester.send(.GET, path, refuse: false)
    guard (200..<300).contains(response.status.code) else {
      if response.status.code == 404 || response.status.code == 410 { return nil }
      throw HTTPCloudError.refusal(response)
    }
    let message: SnapshotMessage = try requester.decode(response)
    let batch: ChangeBatch
    do {
      batch = try ChangeBatchCoding.decode(message.batch)
    } catch {
      throw CloudError.damaged(location: location, reason: "page \(page) of its snapshot at \(message.position) is not a batch: \(error)")
    }
    return SnapshotPage(
      position: message.position, schemaVersion: message.schemaVersion, page: message.page, pageCount: message.pageCount, batch: batch)
  }
}
