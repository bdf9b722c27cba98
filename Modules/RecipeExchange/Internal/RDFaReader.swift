/// schema.org Recipes written as RDFa Lite: every element whose `typeof` is a Recipe, read
/// as RDFa 1.1 reads the Lite attributes (`vocab`, `typeof`, `property`, `resource`,
/// `prefix`).
///
/// - A term is schema.org's when it is a bare term under `vocab="http://schema.org/"`
///   (or https), a full schema.org address, or written with a prefix that maps to
///   schema.org: `schema:` does by default (RDFa's initial context), and `prefix="s:
///   https://schema.org/"` makes `s:` do so. Other vocabularies' terms (`og:title`) are
///   not read.
/// - An element's `property` belongs to the nearest enclosing element with `typeof`.
///   `property` may list several terms; each gets the value.
/// - A property's value: a nested item's object when the element has `typeof`; else its
///   `content`; else its `resource`, `href` or `src`; else `datetime` for `time`; else the
///   element's markup, which ``RecipeFields`` tidies into text as it does a JSON-LD
///   string.
/// - Items nested deeper than ``PageMarkup/Budget/maximumDepth`` are left out with a
///   warning.
struct RDFaReader {
  let tree: HTMLTree
  private(set) var warnings: [String] = []
  /// Each element's vocabulary, when schema.org's (inherited from the nearest `vocab`).
  private var inSchemaVocabulary: [Bool] = []
  /// The prefixes mapped to schema.org where each element is, by the element whose
  /// `prefix` attribute last changed them.
  private var prefixScope: [Int] = []
  private var schemaPrefixes: [Int: Set<Substring>] = [:]
  /// The property elements of each item element, in document order.
  private var propertiesOf: [Int: [Int]] = [:]

  /// Prefixes a page maps to schema.org beyond the default `schema:` (a page writes one).
  private static let maximumPrefixes = 8

  init(tree: HTMLTree) {
    self.tree = tree
    var subjectOf: [Int] = []
    inSchemaVocabulary.reserveCapacity(tree.elements.count)
    prefixScope.reserveCapacity(tree.elements.count)
    subjectOf.reserveCapacity(tree.elements.count)
    for (index, element) in tree.elements.enumerated() {
      let parent = element.parent
      let attributes = element.attributes
      inSchemaVocabulary.append(
        attributes["vocab"].map { PageMarkup.isSchemaVocabulary(Substring($0)) } ?? (parent >= 0 && inSchemaVocabulary[parent]))
      let inherited = parent >= 0 ? prefixScope[parent] : -1
      if let declaration = attributes["prefix"] {
        schemaPrefixes[index] = Self.prefixes(declaration, over: inherited >= 0 ? schemaPrefixes[inherited] ?? [] : ["schema"])
        prefixScope.append(index)
      } else {
        prefixScope.append(inherited)
      }
      // The item a property here belongs to: the nearest enclosing element with typeof.
      let subject = parent < 0 ? -1 : tree.elements[parent].attributes["typeof"] != nil ? parent : subjectOf[parent]
      subjectOf.append(subject)
      if subject >= 0, attributes["property"] != nil { propertiesOf[subject, default: []].append(index) }
    }
  }

  /// `prefix="s: https://schema.org/ og: http://ogp.me/ns#"` over the prefixes in scope:
  /// those mapped to schema.org after it.
  private static func prefixes(_ declaration: String, over inherited: Set<Substring>) -> Set<Substring> {
    var result = inherited
    let tokens = PageMarkup.tokens(declaration)
    var index = 0
    while index + 1 < tokens.count {
      let name = tokens[index]
      guard name.hasSuffix(":") else {
        index += 1
        continue
      }
      let prefix = name.dropLast().lowercased()
      if PageMarkup.isSchemaVocabulary(tokens[index + 1]) {
        if result.count < maximumPrefixes { result.insert(Substring(prefix)) }
      } else {
        result.remove(Substring(prefix))
      }
      index += 2
    }
    return result
  }

  /// The schema.org name of a term used at an element, or nil when it is another
  /// vocabulary's.
  private func schemaName(_ term: Substring, at index: Int) -> Substring? {
    if let name = PageMarkup.schemaName(term) { return name }
    if let colon = term.firstIndex(of: ":") {
      let prefix = term[..<colon].lowercased()
      let scope = prefixScope[index]
      let mapped = scope >= 0 ? schemaPrefixes[scope] ?? [] : ["schema"]
      return mapped.contains(Substring(prefix)) && term.index(after: colon) < term.endIndex ? term[term.index(after: colon)...] : nil
    }
    return inSchemaVocabulary[index] ? term : nil
  }

  /// The object of every Recipe item, in document order.
  mutating func recipes(budget: inout PageMarkup.Budget) -> [[String: Any]] {
    var objects: [[String: Any]] = []
    for (index, element) in tree.elements.enumerated() where element.attributes["typeof"] != nil {
      guard RecipeLocator.isRecipe(["@type": types(of: index).map(String.init)]) else { continue }
      objects.append(item(index, depth: 0, budget: &budget))
    }
    return objects
  }

  private func types(of index: Int) -> [Substring] {
    PageMarkup.tokens(tree.elements[index].attributes["typeof"]).compactMap { schemaName($0, at: index) }
  }

  private mutating func item(_ index: Int, depth: Int, budget: inout PageMarkup.Budget) -> [String: Any] {
    var properties: [String: [Any]] = [:]
    for property in propertiesOf[index] ?? [] {
      guard budget.visit() else { break }
      let names = PageMarkup.tokens(tree.elements[property].attributes["property"]).compactMap { schemaName($0, at: property) }
      guard !names.isEmpty, let value = self.value(of: property, depth: depth, budget: &budget) else { continue }
      var seen = Set<Substring>()
      for name in names where seen.insert(name).inserted { properties[String(name), default: []].append(value) }
    }
    return PageMarkup.object(types: types(of: index), properties: properties)
  }

  private mutating func value(of index: Int, depth: Int, budget: inout PageMarkup.Budget) -> Any? {
    let element = tree.elements[index]
    let attributes = element.attributes
    if attributes["typeof"] != nil {
      guard depth + 1 < PageMarkup.Budget.maximumDepth else {
        let warning = "RDFa items nested deeper than \(PageMarkup.Budget.maximumDepth) were left out"
        if !warnings.contains(warning) { warnings.append(warning) }
        return nil
      }
      return item(index, depth: depth + 1, budget: &budget)
    }
    if let value = attributes["content"] ?? attributes["resource"] ?? attributes["href"] ?? attributes["src"] { return value }
    if element.name == "time", let datetime = attributes["datetime"] { return datetime }
    return budget.take(tree.markupLength(of: index)) ? tree.markup(of: index) : nil
  }
}
