public import Model

/// The parts of a store a query reads: some entity kinds, and perhaps the metadata table
/// (with sync's record states). An observed query names its region so that a commit
/// elsewhere does not wake it.
///
/// ```swift
/// let region = StoreRegion(.weeklyList, .groceryListItem, .groceryStore)
/// region.intersects(StoreRegion(.recipe))  // false
/// ```
public struct StoreRegion: Sendable, Hashable, CustomStringConvertible {
  /// The entity kinds whose records the query reads.
  public var kinds: Set<EntityKind>
  /// Whether the query reads the metadata table or sync's record states.
  public var metadata: Bool

  /// A region of these kinds, with or without the metadata table.
  public init(kinds: Set<EntityKind> = [], metadata: Bool = false) {
    self.kinds = kinds
    self.metadata = metadata
  }

  /// A region of these kinds, without the metadata table.
  public init(_ kind: EntityKind, _ more: EntityKind...) {
    self.init(kinds: Set([kind] + more))
  }

  /// Every kind and the metadata table: what a commit whose changes are unknown may touch.
  public static let everything = StoreRegion(kinds: Set(EntityKind.allCases), metadata: true)

  /// The metadata table (and sync's record states) alone.
  public static let metadataOnly = StoreRegion(metadata: true)

  /// Whether the region holds nothing.
  public var isEmpty: Bool { kinds.isEmpty && !metadata }

  /// Both regions together.
  public func union(_ other: StoreRegion) -> StoreRegion {
    StoreRegion(kinds: kinds.union(other.kinds), metadata: metadata || other.metadata)
  }

  /// Whether a change to `other` can touch this region.
  public func intersects(_ other: StoreRegion) -> Bool {
    (metadata && other.metadata) || !kinds.isDisjoint(with: other.kinds)
  }

  /// The kinds' names, sorted, and "metadata" when it holds the table.
  public var description: String {
    let names = kinds.sorted().map(\.rawValue) + (metadata ? ["metadata"] : [])
    return names.isEmpty ? "nothing" : names.joined(separator: ", ")
  }
}
