/// A refresh of the view that could not finish, or whose check failed. The transaction that asked for it rolls
/// back: nothing of the page is applied and the sync position does not move.
public enum SyncViewError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The records to compute again did not run out within the bound, proportional to the
  /// records the refresh reached (relationships form no cycles, so only a fault reaches it).
  case unfinishedRefresh(steps: Int)
  /// A shortcut of the view disagreed with the full computation it skips (checked in
  /// debug builds, and in release builds with `FORAGER_SYNC_CHECKS=1`).
  case shortcutDisagrees(String)

  /// A message saying what went wrong.
  public var description: String {
    switch self {
    case .unfinishedRefresh(let steps):
      "the view of the pulled changes did not settle within \(steps) steps; nothing of this page was applied and the"
        + " sync position did not move (run `sync verify`)"
    case .shortcutDisagrees(let what):
      "a shortcut of the view disagrees with the full computation: \(what); nothing of this sync was applied"
    }
  }
}
