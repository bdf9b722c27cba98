#if DEBUG
  /// Deliberate faults in the merge and in the view's bookkeeping, for the mutation tests
  /// (`MutationTests`) that show the randomized check notices each one. A fault is active
  /// only in the task that binds it (`SyncMutation.$active.withValue(…)`), so other tests
  /// running at the same time are not affected; release builds have none.
  package enum SyncMutation: String, Sendable, Hashable, CaseIterable {
    /// The join keeps the register that arrived first instead of the higher one.
    case joinKeepsFirstWriter
    /// The view drops a dependency rule: a component's change does not recompute the
    /// records that hold a key its members hold (a rename that leaves "Produce" does not
    /// show the other "Produce" again).
    case dropKeyHolderRule
    /// The view skips an index update: no `sync.ref` entry is written, so a record shown
    /// other than as written is not recomputed when its target changes.
    case skipDependencyNote
    /// A shortcut trusts a stale index: the row cache keeps a row the view rewrote, so
    /// whether a referenced record is shown is read from what it showed before.
    case staleRowCache
    /// A refresh never settles: its step bound is reached at once (as if relationships
    /// formed a cycle), so the transaction that asked for it must roll back.
    case endlessRefresh

    /// The fault active in this task, if any.
    @TaskLocal package static var active: SyncMutation?
  }
#endif
