public import Foundation
public import Model
import Persistence

/// A record this device does not show because the view of its state breaks the schema
/// (Docs/SYNC.md, "Refusals and limits"): its rows are not live until a later change makes
/// the view valid. `sync status` lists them.
public struct UnshownRecord: Sendable, Hashable {
  /// The kind of the record.
  public let kind: EntityKind
  /// The record's id.
  public let id: UUID
  /// What the schema refused: the field and the rule it breaks.
  public let reason: String

  /// The text kept for `error`: a store's refusal names the field and the rule.
  static func reason(of error: any Error) -> String {
    if case StoreError.invalidRecord(_, _, let field, let reason)? = error as? StoreError { return "\(field) \(reason)" }
    return String(describing: error)
  }
}

extension SyncEngine {
  /// The records this device does not show because their view breaks the schema, in
  /// kind and id order.
  public func unshownRecords() throws -> [UnshownRecord] {
    try store.read { reader in
      let keys = try reader.metadataKeys(withPrefix: ReplicaKeys.unshownPrefix)
      let offset = ReplicaKeys.unshownPrefix.utf8.count
      return try reader.metadata(forKeys: keys).compactMap { entry, reason -> UnshownRecord? in
        guard let key = ReplicaKeys.parsePath(entry, from: offset) else { return nil }
        return UnshownRecord(kind: key.kind, id: key.id, reason: reason)
      }.sorted { RecordKey(kind: $0.kind, id: $0.id) < RecordKey(kind: $1.kind, id: $1.id) }
    }
  }
}
