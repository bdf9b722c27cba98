/// The schema.org Recipes a page writes in its markup rather than in JSON-LD: microdata
/// (``MicrodataReader``) first, else RDFa Lite (``RDFaReader``). Each item becomes the
/// object JSON-LD would have given (`@type`, then each property's value or values: text,
/// an address, or a nested item's object), so ``RecipeFields`` reads it with the same
/// rules and limits.
///
/// A page is untrusted, so what reading its markup spends is bounded (``Budget``), in
/// the forms it is spent: elements kept, element visits, text copied out, and how deep
/// items nest.
enum PageMarkup {
  /// The attributes either reader uses; the tokenizer keeps no others.
  static let attributes: Set<String> = [
    "id", "itemscope", "itemtype", "itemprop", "itemref", "content", "href", "src", "datetime", "value", "data", "vocab",
    "typeof", "property", "resource", "prefix",
  ]

  struct Found {
    var objects: [[String: Any]] = []
    var warnings: [String] = []
    /// "microdata" or "RDFa": which markup the objects came from.
    var syntax: String?
    /// Why reading stopped early, when a bound stopped it.
    var stopped: String?
    /// What reading spent: elements kept, element visits, characters of markup copied.
    var elements = 0, visits = 0, characters = 0
  }

  /// A quick look before the page is tokenized: a page without `itemscope` or `typeof`
  /// anywhere (most pages with JSON-LD) costs one pass over its bytes.
  static func mayHoldItems(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return contains(bytes, "itemscope") || contains(bytes, "typeof")
  }

  static func recipes(in text: String, limits: ReadLimits) -> Found {
    guard mayHoldItems(text) else { return Found() }
    let tree = HTMLTagScanner.tree(text, keeping: attributes, maximumElements: Budget.maximumElements)
    var budget = Budget(characters: limits.maximumBytes)
    var found = Found()
    var microdata = MicrodataReader(tree: tree)
    found.objects = microdata.recipes(budget: &budget)
    found.warnings = microdata.warnings
    found.syntax = "microdata"
    if found.objects.isEmpty {
      var rdfa = RDFaReader(tree: tree)
      found.objects = rdfa.recipes(budget: &budget)
      found.warnings = rdfa.warnings
      found.syntax = "RDFa"
    }
    if found.objects.isEmpty { found.syntax = nil }
    if tree.isTruncated {
      found.stopped = "the page has more than \(Budget.maximumElements) elements; markup after them was not read"
    }
    if let spent = budget.spent { found.stopped = found.stopped.map { "\($0); \(spent)" } ?? spent }
    if let stopped = found.stopped, !found.objects.isEmpty { found.warnings.append(stopped) }
    (found.elements, found.visits, found.characters) = (tree.elements.count, budget.visits, budget.characters)
    return found
  }

  /// What reading a page's items may spend. Each bound sits far above any real recipe
  /// page and far below what would hold up an import.
  struct Budget {
    /// Elements the tokenizer keeps (a large recipe page has under 10,000).
    static let maximumElements = 100_000
    /// Element visits while finding items' properties: itemref lets items share elements,
    /// so a page could otherwise make its elements be visited once per item.
    static let maximumVisits = 10 * maximumElements
    /// How deep items nest inside items: the depth the JSON-LD reader searches.
    static let maximumDepth = RecipeLocator.maximumDepth
    /// Names, types or ids read from one attribute (a real one lists one to three).
    static let maximumTokens = 32

    private(set) var visits = 0
    /// Characters of markup copied out as property values (nested properties copy their
    /// markup again): at most as many as the page's size limit.
    private(set) var characters = 0
    let maximumCharacters: Int
    /// Which bound was reached, said once.
    private(set) var spent: String?

    init(characters: Int) { maximumCharacters = characters }

    /// Counts one element visit; false once the visits are spent.
    mutating func visit() -> Bool {
      guard visits < Self.maximumVisits else {
        spent = spent ?? "items' properties were searched through \(Self.maximumVisits) elements; the rest was not read"
        return false
      }
      visits += 1
      return true
    }

    /// Counts `count` characters of text to copy; false (and nothing counted) when they
    /// would pass the limit.
    mutating func take(_ count: Int) -> Bool {
      guard characters + count <= maximumCharacters else {
        spent = spent ?? "property texts passed \(maximumCharacters) characters in all; the rest were left out"
        return false
      }
      characters += count
      return true
    }
  }

  // MARK: Shared by both readers

  /// The schema.org name in an address, "Recipe" from "https://schema.org/Recipe"; nil
  /// for another vocabulary's.
  static func schemaName(_ iri: Substring) -> Substring? {
    for prefix in ["http://schema.org/", "https://schema.org/", "http://www.schema.org/", "https://www.schema.org/"] {
      if iri.count > prefix.count, iri.lowercased().hasPrefix(prefix) { return iri.dropFirst(prefix.count) }
    }
    return nil
  }

  /// Whether a vocabulary address is schema.org's (`vocab="http://schema.org/"`).
  static func isSchemaVocabulary(_ iri: Substring) -> Bool {
    let lowered = iri.lowercased()
    return ["http://schema.org", "https://schema.org", "http://www.schema.org", "https://www.schema.org"].contains {
      lowered == $0 || lowered == $0 + "/"
    }
  }

  /// An item's object: its types under `@type`, then each property's value, or its
  /// values as an array when the item gives it more than once.
  static func object(types: [Substring], properties: [String: [Any]]) -> [String: Any] {
    var object: [String: Any] = [:]
    for (name, values) in properties { object[name] = values.count == 1 ? values[0] : values }
    object["@type"] = types.map(String.init)
    return object
  }

  /// The first ``Budget/maximumTokens`` whitespace-separated tokens, as `itemprop`,
  /// `itemref`, `itemtype`, `typeof` and `property` list them; the rest of the value is
  /// not looked at (an element may be read once per item that refers to it).
  static func tokens(_ value: String?) -> [Substring] {
    guard let value else { return [] }
    var tokens: [Substring] = [], start: String.Index?
    var index = value.startIndex
    while index < value.endIndex, tokens.count < Budget.maximumTokens {
      let isSpace =
        value[index] == " " || value[index] == "\t" || value[index] == "\n" || value[index] == "\r\n" || value[index] == "\r"
        || value[index] == "\u{0C}"
      if isSpace, let first = start {
        tokens.append(value[first..<index])
        start = nil
      } else if !isSpace, start == nil {
        start = index
      }
      index = value.index(after: index)
    }
    if let start, tokens.count < Budget.maximumTokens { tokens.append(value[start..<index]) }
    return tokens
  }

  private static func contains(_ bytes: [UInt8], _ word: String) -> Bool {
    let needle = Array(word.utf8)
    var index = 0
    while index + needle.count <= bytes.count {
      if HTMLAttributes.lowered(bytes[index]) == needle[0],
        needle.indices.allSatisfy({ HTMLAttributes.lowered(bytes[index + $0]) == needle[$0] })
      {
        return true
      }
      index += 1
    }
    return false
  }
}
