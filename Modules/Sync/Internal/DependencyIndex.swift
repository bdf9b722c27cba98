import Foundation
import Model
import Persistence

/// The `sync.ref` entries one transaction reads and writes: which records' views are
/// computed again when a record changes (`ReplicaKeys.referencePrefix`).
///
/// An entry is written only for a reference the view shows other than as written (to a
/// merged record, a deleted one, or one not arrived yet), so most kinds have none or a
/// few. The first time a kind is asked about, its entries are read with one range read of
/// at most ``wholeKindLimit`` + 1 keys: when they fit, every later question about the kind
/// is answered from memory (with the entries this transaction adds); when they do not,
/// each target's entries are read by a range of their own, as before. Either way the
/// answer is what a range read of the target's entries would give: entries are only
/// ever added, and all of them go through ``note(_:dependsOn:)``.
final class DependencyIndex {
  private let writer: any StoreWriter
  /// Per kind read whole: target → the records depending on it.
  private var whole: [EntityKind: [RecordKey: Set<RecordKey>]] = [:]
  /// Kinds with more entries than ``wholeKindLimit``.
  private var readByTarget: Set<EntityKind> = []
  static let wholeKindLimit = 256

  init(_ writer: any StoreWriter) { self.writer = writer }

  /// The records whose view depends on `target`'s.
  func dependents(of target: RecordKey) throws -> [RecordKey] {
    if let entries = try wholeKind(target.kind) { return entries[target].map { Array($0) } ?? [] }
    let prefix = ReplicaKeys.references(to: target)
    let length = prefix.utf8.count
    return try writer.metadataKeys(withPrefix: prefix).compactMap { ReplicaKeys.parsePath($0, from: length) }
  }

  /// Notes that `owner`'s view is computed again when `target`'s changes.
  func note(_ owner: RecordKey, dependsOn target: RecordKey) throws {
    #if DEBUG
      if SyncMutation.active == .skipDependencyNote { return }
    #endif
    try writer.setMetadata("", forKey: ReplicaKeys.reference(to: target, from: owner))
    if whole[target.kind] != nil { whole[target.kind, default: [:]][target, default: []].insert(owner) }
  }

  /// Every entry of a kind when there are at most ``wholeKindLimit``, read once; nil when
  /// there are more.
  private func wholeKind(_ kind: EntityKind) throws -> [RecordKey: Set<RecordKey>]? {
    if let known = whole[kind] { return known }
    guard !readByTarget.contains(kind) else { return nil }
    let prefix = ReplicaKeys.referencePrefix + kind.rawValue + "/"
    let keys = try writer.metadataKeys(withPrefix: prefix, limit: Self.wholeKindLimit + 1)
    guard keys.count <= Self.wholeKindLimit else {
      readByTarget.insert(kind)
      return nil
    }
    var entries: [RecordKey: Set<RecordKey>] = [:]
    let targetOffset = ReplicaKeys.referencePrefix.utf8.count
    // `<kind>/<target id>/` precedes the owner's path.
    let ownerOffset = prefix.utf8.count + 37
    for key in keys {
      guard let target = ReplicaKeys.parsePath(key, from: targetOffset), let owner = ReplicaKeys.parsePath(key, from: ownerOffset)
      else { continue }
      entries[target, default: []].insert(owner)
    }
    whole[kind] = entries
    return entries
  }
}
