/// Finds schema.org Recipe objects in parsed JSON-LD, in the shapes sites publish: a
/// top-level object or array, `@graph` (WordPress/Yoast), `mainEntity`, an ItemList's
/// `itemListElement`/`item`, and `@type` given as an array (["Recipe", "NewsArticle"]) or
/// as a full address ("http://schema.org/Recipe"). Keys are matched in any case.
enum RecipeLocator {
  /// How deep a document is searched: far beyond any real page, short of a stack overflow.
  static let maximumDepth = 64

  static func recipes(in json: Any) -> [[String: Any]] {
    var found: [[String: Any]] = []
    collect(json, depth: 0, into: &found)
    return found
  }

  private static func collect(_ node: Any, depth: Int, into found: inout [[String: Any]]) {
    guard depth < maximumDepth else { return }
    if let array = node as? [Any] {
      for element in array { collect(element, depth: depth + 1, into: &found) }
    } else if let object = node as? [String: Any] {
      if isRecipe(object) {
        found.append(object)
        return
      }
      // Every member, in a stable order: a recipe can sit under @graph, mainEntity,
      // itemListElement, item, or a key no one documented.
      for key in object.keys.sorted() where !key.hasPrefix("@context") {
        if let value = object[key] { collect(value, depth: depth + 1, into: &found) }
      }
    }
  }

  static func isRecipe(_ object: [String: Any]) -> Bool {
    guard let type = JSONMember.value(object, "@type") else { return false }
    let types = (type as? [Any] ?? [type]).compactMap { $0 as? String }
    return types.contains { type in
      let name = type.split(whereSeparator: { $0 == "/" || $0 == ":" || $0 == "#" }).last.map(String.init) ?? type
      return name.lowercased() == "recipe"
    }
  }
}

/// Reading members of JSON objects whose keys pages spell in any case.
enum JSONMember {
  /// The member with this key, or else the one whose key matches ignoring case.
  static func value(_ object: [String: Any], _ key: String) -> Any? {
    if let value = object[key] { return value }
    let lowered = key.lowercased()
    return object.first { $0.key.lowercased() == lowered }?.value
  }
}
