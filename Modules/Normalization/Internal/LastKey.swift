import Synchronization

/// The last name folded by one key function and its key.
///
/// Writing a record of a unique kind folds its name twice in a row: the repository folds it
/// to look the key up, then the store folds the same name again to check the record it
/// writes (`Record.validateSemanticKey`). The second fold is this entry's hit. The functions
/// are pure, so an entry is true for as long as it is kept; one entry holds no memory to
/// speak of and a lock held for a string comparison costs nothing next to a fold
/// (Docs/PERFORMANCE.md, "Hand-written code").
final class LastKey: Sendable {
  private let entry = Mutex<(name: String, key: String)?>(nil)

  /// The key of `name`: the kept one when `name` is the last name, else `fold(name)`, kept.
  func key(of name: String, _ fold: (String) -> String) -> String {
    if let hit = entry.withLock({ $0?.name == name ? $0?.key : nil }) { return hit }
    let key = fold(name)
    entry.withLock { $0 = (name, key) }
    return key
  }
}
