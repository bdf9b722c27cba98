import Foundation
import Persistence

/// Batches this device keeps without applying them (``HeldBatch``): from a newer schema
/// than ``SyncEngine/schemaVersion``, or unreadable by this version. Each is kept in the
/// store's metadata under its cloud sequence; the pull moves past it, so the batches after
/// it still arrive. The first sync after an upgrade that can read a held batch applies it
/// (joining is order-free, so applying it late gives the state applying it on time would).
extension SyncEngine {
  /// The batches kept unread, in log order.
  public func heldBatches() throws -> [HeldBatch] {
    try store.read { reader in
      let keys = try reader.metadataKeys(withPrefix: ReplicaKeys.heldPrefix).sorted()
      return try reader.metadata(forKeys: keys).sorted { $0.key < $1.key }.map { try Self.decodeHeld($0.value) }
    }
  }

  /// The held batch for a pulled entry this device must not apply, or nil to apply it.
  func hold(_ entry: CloudEntry) -> HeldBatch? {
    if let held = entry.held { return held }
    guard entry.batch.schemaVersion > schemaVersion else { return nil }
    return HeldBatch(
      sequence: entry.sequence, id: entry.batch.id, replica: entry.batch.replica, schemaVersion: entry.batch.schemaVersion,
      reason: "schema v\(entry.batch.schemaVersion) is newer than this device's v\(schemaVersion)", bytes: Data())
  }

  /// Keeps a held batch by reference: its place in the log, header and reason, not its
  /// bytes, which the sync after an upgrade fetches again. A device that cannot read a
  /// newer schema's batches does not store them, however many another device pushes.
  func keep(_ batch: HeldBatch, _ writer: any StoreWriter) throws {
    let reference = HeldBatch(
      sequence: batch.sequence, id: batch.id, replica: batch.replica, schemaVersion: batch.schemaVersion, reason: batch.reason,
      bytes: Data())
    let data = try JSONEncoder().encode(reference)
    try writer.setMetadata(String(decoding: data, as: UTF8.self), forKey: ReplicaKeys.held(batch.sequence))
  }

  /// Applies the held batches this version can now read, in log order, and forgets them.
  /// A batch kept by reference (no bytes) is fetched from the cloud again; each is checked
  /// like any pulled batch (``screen(_:replica:rules:_:)``).
  func applyHeldBatches(into report: inout Report) throws {
    let ready = try heldBatches().filter { $0.schemaVersion <= schemaVersion }.compactMap { held -> (HeldBatch, CloudEntry)? in
      if held.bytes.isEmpty {
        guard let entry = try cloud.pull(after: held.sequence - 1, limit: 1).first, entry.sequence == held.sequence,
          entry.held == nil
        else { return nil }
        return (held, entry)
      }
      guard let batch = try? ChangeBatchCoding.decode(held.bytes) else { return nil }
      return (held, CloudEntry(sequence: held.sequence, batch: batch))
    }
    guard !ready.isEmpty else { return }
    let rules = pullRules()
    let (counts, aside) = try writeStates { writer -> (SyncCounts, Int) in
      let replica = try writer.ensureReplicaID(newReplicaID)
      let screened = try screen(ready.map(\.1), replica: replica, rules: rules, writer)
      let counts = try join(screened.batches, writer, rules: rules)
      try keepAside(screened.aside, writer)
      for (held, _) in ready { try writer.setMetadata(nil, forKey: ReplicaKeys.held(held.sequence)) }
      return (counts, screened.aside.count)
    }
    report.setAside += aside
    add(counts, to: &report)
    monitor.record(.import, "\(deviceName): applied \(ready.count) batch(es) kept from a newer schema", count: counts.imports)
  }

  private static func decodeHeld(_ text: String) throws -> HeldBatch {
    do {
      return try JSONDecoder().decode(HeldBatch.self, from: Data(text.utf8))
    } catch {
      throw CloudError.damaged(location: "this store", reason: "a held batch cannot be read: \(error)")
    }
  }
}
