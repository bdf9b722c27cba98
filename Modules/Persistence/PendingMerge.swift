public import Foundation
public import Model

/// A merge made outside sync — a user's `recipe merge`, a migration's dedup step — kept in
/// the store until sync replicates it as a merge edge (Docs/SYNC.md).
///
/// Whoever merges records writes one with ``StoreWriter/recordMerge(_:loser:into:origin:)``
/// in the transaction that merges them; the next sync turns it into an edge loser → keeper
/// that every device receives, so a change that still names the loser, made anywhere,
/// lands on the keeper. The loser's tombstone written with it is the merge's, not a
/// user's delete.
public struct PendingMerge: Sendable, Hashable {
  /// The kind of the merged records.
  public let kind: EntityKind
  /// The record merged away.
  public let loser: UUID
  /// The record kept.
  public let keeper: UUID
  /// Who merged: a user (`.local`), whose kept record's values win over the merged one's,
  /// or a migration (`.migration`), which every device that migrates the same file makes alike.
  public let origin: ChangeOrigin

  /// A merge of `loser` into `keeper`.
  public init(kind: EntityKind, loser: UUID, keeper: UUID, origin: ChangeOrigin) {
    self.kind = kind
    self.loser = loser
    self.keeper = keeper
    self.origin = origin
  }

  static let prefix = "merge.pending/"

  /// `merge.pending/<kind>/<loser>/<keeper>`.
  var key: String { "\(Self.prefix(of: kind))\(loser.lowercaseText)/\(keeper.lowercaseText)" }

  /// `merge.pending/<kind>/`: what the key of a merge of `kind` starts with, for a backend
  /// that writes many at once.
  package static func prefix(of kind: EntityKind) -> String { "\(prefix)\(kind.rawValue)/" }

  init?(key: String, origin: String) {
    let parts = key.dropFirst(Self.prefix.count).split(separator: "/")
    guard key.hasPrefix(Self.prefix), parts.count == 3, let kind = EntityKind(rawValue: String(parts[0])),
      let loser = UUID(hyphenatedHex: String(parts[1])), let keeper = UUID(hyphenatedHex: String(parts[2]))
    else { return nil }
    self.init(kind: kind, loser: loser, keeper: keeper, origin: ChangeOrigin(rawValue: origin))
  }
}

extension StoreWriter {
  /// Records that `loser` was merged into `keeper`, for sync to replicate (see ``PendingMerge``).
  public func recordMerge(_ kind: EntityKind, loser: UUID, into keeper: UUID, origin: ChangeOrigin) throws {
    guard loser != keeper else { return }
    let merge = PendingMerge(kind: kind, loser: loser, keeper: keeper, origin: origin)
    try setMetadata(origin.rawValue, forKey: merge.key)
  }

  /// Forgets a merge sync has replicated.
  public func clearPendingMerge(_ merge: PendingMerge) throws {
    try setMetadata(nil, forKey: merge.key)
  }
}

extension StoreReader {
  /// The merges not yet replicated, in key order (one range read; usually none).
  public func pendingMerges() throws -> [PendingMerge] {
    let keys = try metadataKeys(withPrefix: PendingMerge.prefix)
    guard !keys.isEmpty else { return [] }
    let values = try metadata(forKeys: keys)
    return keys.compactMap { key in values[key].flatMap { PendingMerge(key: key, origin: $0) } }
  }
}
