/// A merged, canonicalized alias table whose every value is final: looking a result up
/// again finds nothing, which keeps `canonicalIngredientName` idempotent.
struct AliasResolver: Sendable {
  private let targets: [String: String]

  /// The default table, canonicalized once.
  static let defaults = AliasResolver(merging: [:])

  /// Merges `DefaultAliasTable` with `extra` (which wins), canonicalizing keys and values,
  /// then follows chains (a → b, b → c gives a → c). A cycle resolves to its smallest name,
  /// so the result never depends on dictionary order.
  init(merging extra: [String: String]) {
    var table: [String: String] = [:]
    func add(_ pairs: [String: String]) {
      // Sorted, so two raw keys that canonicalize alike resolve the same way every run.
      for key in pairs.keys.sorted() {
        guard let value = pairs[key] else { continue }
        let canonicalKey = Self.canonicalBase(key)
        let canonicalValue = Self.canonicalBase(value)
        guard !canonicalKey.isEmpty, !canonicalValue.isEmpty else { continue }
        table[canonicalKey] = canonicalValue
      }
    }
    add(DefaultAliasTable.table)
    add(extra)

    var resolved: [String: String] = [:]
    for key in table.keys {
      var path = [key]
      var seen: Set<String> = [key]
      var current = key
      var target = key
      while let next = table[current] {
        if seen.contains(next) {
          let cycleStart = path.firstIndex(of: next) ?? 0
          target = path[cycleStart...].min() ?? next
          break
        }
        path.append(next)
        seen.insert(next)
        current = next
        target = next
      }
      if target != key { resolved[key] = target }
    }
    targets = resolved
  }

  func resolve(_ canonicalBase: String) -> String {
    targets[canonicalBase] ?? canonicalBase
  }

  /// normalizedName + singular head noun: the form keys and values are compared in.
  static func canonicalBase(_ text: String) -> String {
    Inflection.singularizeHeadNoun(SemanticKey.normalizedName(text))
  }
}
