import CommandLanguage
import Model
import Repositories

/// "; did you mean 'Trader Joe's'?" for a name no record has, when a record of its kind
/// has a close one.
enum NameSuggestion {
  /// Kinds with at most this many live records are searched for a close name: a
  /// suggestion reads every name of the kind.
  static let maximumRecords = 2_000

  /// The suggestion for `name` among the live records of `kind`, or "".
  static func text(for name: String, kind: EntityKind, in library: Library) -> String {
    guard let count = try? library.counts()[kind], count <= maximumRecords,
      let names = try? library.names(of: kind, startingWith: "")
    else { return "" }
    guard let best = Similarity.closest(to: name, among: names.sorted()) else { return "" }
    return "; did you mean '\(best)'?"
  }
}
