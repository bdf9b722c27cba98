public import Model

/// What an import did, or would do under `--dry-run`, for each kind.
public struct KitchenArchiveSummary: Sendable, Hashable {
  /// What an import did to the records of one kind.
  public struct Counts: Sendable, Hashable {
    /// Records the kitchen did not hold.
    public var created = 0
    /// Records it held (by id or semantic key) whose fields the archive changed.
    public var updated = 0
    /// Records it held as the archive has them.
    public var unchanged = 0
    /// Ingredient lines of a recipe the archive holds that the archive's recipe does not have.
    public var removed = 0

    /// All counts zero.
    public init() {}

    /// Records created, updated or removed.
    public var changed: Int { created + updated + removed }
  }

  /// Counts per kind; every kind is present.
  public var kinds: [EntityKind: Counts]
  /// Whether nothing was written because it was a dry run.
  public var dryRun: Bool

  init(dryRun: Bool) {
    kinds = Dictionary(uniqueKeysWithValues: EntityKind.allCases.map { ($0, Counts()) })
    self.dryRun = dryRun
  }

  /// Whether the import changed (or would change) nothing: a second import of one file.
  public var changedNothing: Bool { kinds.values.allSatisfy { $0.changed == 0 } }

  /// Totals over every kind.
  public var total: Counts {
    kinds.values.reduce(into: Counts()) {
      $0.created += $1.created
      $0.updated += $1.updated
      $0.unchanged += $1.unchanged
      $0.removed += $1.removed
    }
  }
}
