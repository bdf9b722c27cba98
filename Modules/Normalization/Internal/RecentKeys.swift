import Synchronization

/// The keys one key function gave for the names it folded last, up to ``capacity`` of them.
///
/// The same name is folded many times over: a repository folds it to look the key up and
/// the store folds it again to check the record it writes (`Record.validateSemanticKey`);
/// a sync computes the key of each record's state before and after a change, again when it
/// writes the state back and again when it refreshes the record's view. The functions are
/// pure, so an entry is true for as long as it is kept. When the table is full it is
/// emptied and starts over: the names of one transaction are folded close together, so
/// keeping the most recent ones is enough, and the table never holds more than
/// ``capacity`` entries (Docs/PERFORMANCE.md, "Hand-written code").
final class RecentKeys: Sendable {
  private let table = Mutex<[String: String]>([:])
  /// The most entries kept.
  let capacity: Int

  init(capacity: Int = 65_536) {
    self.capacity = capacity
  }

  /// The key of `name`: the kept one when `name` was folded recently, else `fold(name)`, kept.
  func key(of name: String, _ fold: (String) -> String) -> String {
    if let hit = table.withLock({ $0[name] }) { return hit }
    let key = fold(name)
    table.withLock { table in
      if table.count >= capacity { table.removeAll(keepingCapacity: true) }
      table[name] = key
    }
    return key
  }

  /// How many entries are kept now.
  var count: Int { table.withLock { $0.count } }
}
