/// schema.org Recipes written as HTML microdata: every element with `itemscope` whose
/// `itemtype` is a Recipe, read as the HTML standard's microdata model reads it.
///
/// - An item's properties are the elements with `itemprop` among its descendants, and
///   among the elements its `itemref` names by id and theirs, not looking inside nested
///   items; in document order. An element met twice (an `itemref` to an ancestor, or
///   two names for one element) counts once.
/// - `itemprop` may give several names ("name headline"); each gets the value. A name
///   given as an address ("http://schema.org/name") is read as its schema.org name.
/// - A property's value: a nested item's object when the element has `itemscope`; else
///   `content` for `meta`, `src` for `img`, `audio`, `video`, `source`, `track`, `embed`,
///   `iframe`, `href` for `a`, `area`, `link`, `data` for `object`, `value` for `data` and
///   `meter`, `datetime` for `time` (its text without one); else a `content` attribute
///   (schema.org's examples put one on `span`, and the common extractors read it); else the
///   element's markup, which ``RecipeFields`` tidies into text as it does a JSON-LD
///   string (so a step list's `<li>`s and `<p>`s stay steps).
/// - A nested item inside itself through `itemref` (a cycle) and items nested deeper
///   than ``PageMarkup/Budget/maximumDepth`` are left out with a warning.
struct MicrodataReader {
  let tree: HTMLTree
  private(set) var warnings: [String] = []
  /// The first element with each id, for `itemref`.
  private let ids: [String: Int]

  init(tree: HTMLTree) {
    self.tree = tree
    var ids: [String: Int] = [:]
    for (index, element) in tree.elements.enumerated() {
      if let id = element.attributes["id"], !id.isEmpty, ids[id] == nil { ids[id] = index }
    }
    self.ids = ids
  }

  /// The object of every Recipe item, in document order.
  mutating func recipes(budget: inout PageMarkup.Budget) -> [[String: Any]] {
    var objects: [[String: Any]] = []
    for (index, element) in tree.elements.enumerated() where element.attributes["itemscope"] != nil {
      let types = PageMarkup.tokens(element.attributes["itemtype"])
      guard RecipeLocator.isRecipe(["@type": types.map(String.init)]) else { continue }
      var path: [Int] = []
      objects.append(item(index, depth: 0, path: &path, budget: &budget))
    }
    return objects
  }

  private mutating func item(_ index: Int, depth: Int, path: inout [Int], budget: inout PageMarkup.Budget) -> [String: Any] {
    path.append(index)
    defer { path.removeLast() }
    var properties: [String: [Any]] = [:]
    for property in self.properties(of: index, budget: &budget) {
      let names = PageMarkup.tokens(tree.elements[property].attributes["itemprop"]).map(Self.name)
      guard !names.isEmpty, let value = self.value(of: property, depth: depth, path: &path, budget: &budget) else { continue }
      var seen = Set<String>()
      for name in names where seen.insert(name).inserted { properties[name, default: []].append(value) }
    }
    return PageMarkup.object(types: PageMarkup.tokens(tree.elements[index].attributes["itemtype"]), properties: properties)
  }

  /// "name" from "name" or from "http://schema.org/name".
  private static func name(_ token: Substring) -> String { String(PageMarkup.schemaName(token) ?? token) }

  /// The elements with `itemprop` that belong to the item at `index`, in document order.
  private func properties(of index: Int, budget: inout PageMarkup.Budget) -> [Int] {
    var found: [Int] = [], visited: Set<Int> = [index]
    let elements = tree.elements
    // From `start` to `end`, each element and what it holds, except inside nested items
    // and what was already searched.
    func search(from start: Int, to end: Int) {
      var current = start
      while current < end, budget.visit() {
        if !visited.insert(current).inserted {
          current = max(current + 1, elements[current].subtreeEnd)
          continue
        }
        let attributes = elements[current].attributes
        if attributes["itemprop"] != nil { found.append(current) }
        current = attributes["itemscope"] != nil ? elements[current].subtreeEnd : current + 1
      }
    }
    search(from: index + 1, to: elements[index].subtreeEnd)
    for id in PageMarkup.tokens(elements[index].attributes["itemref"]) {
      guard let target = ids[String(id)] else { continue }
      search(from: target, to: elements[target].subtreeEnd)
    }
    return found.sorted()
  }

  private mutating func value(of index: Int, depth: Int, path: inout [Int], budget: inout PageMarkup.Budget) -> Any? {
    let element = tree.elements[index]
    let attributes = element.attributes
    if attributes["itemscope"] != nil {
      if path.contains(index) {
        warn("a microdata item that holds itself through itemref was left out (a cycle)")
        return nil
      }
      guard depth + 1 < PageMarkup.Budget.maximumDepth else {
        warn("microdata items nested deeper than \(PageMarkup.Budget.maximumDepth) were left out")
        return nil
      }
      return item(index, depth: depth + 1, path: &path, budget: &budget)
    }
    if let attribute = Self.valueAttribute[element.name] {
      return attributes[attribute] ?? (element.name == "time" ? markup(index, budget: &budget) : "")
    }
    return attributes["content"] ?? markup(index, budget: &budget)
  }

  /// Each warning once, however often the page repeats its cause.
  private mutating func warn(_ warning: String) { if !warnings.contains(warning) { warnings.append(warning) } }

  /// The attribute that holds the value of an element of each name (HTML's microdata
  /// property values).
  private static let valueAttribute: [String: String] = [
    "meta": "content", "audio": "src", "embed": "src", "iframe": "src", "img": "src", "source": "src", "track": "src",
    "video": "src", "a": "href", "area": "href", "link": "href", "object": "data", "data": "value", "meter": "value",
    "time": "datetime",
  ]

  private func markup(_ index: Int, budget: inout PageMarkup.Budget) -> String? {
    budget.take(tree.markupLength(of: index)) ? tree.markup(of: index) : nil
  }
}
