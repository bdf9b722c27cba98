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
    let typed = name.lowercased()
    let best = names.map { ($0, CommandRegistry.distance($0.lowercased(), typed)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
    guard let best, best.1 > 0, best.1 <= max(1, typed.count / 3) else { return "" }
    return "; did you mean '\(best.0)'?"
  }
}
