import Foundation
import Model
import Normalization

/// Maps one schema.org Recipe object to an ``ImportedRecipe``: every field in the forms
/// real pages use, each text tidied, what cannot be kept left out with a warning.
/// Unknown fields are ignored.
struct RecipeFields {
  let object: [String: Any]
  /// The page's own address, for making relative addresses absolute.
  let pageURL: String?
  let limits: ReadLimits
  private(set) var warnings: [String] = []

  init(_ object: [String: Any], pageURL: String?, limits: ReadLimits) {
    self.object = object
    self.pageURL = pageURL
    self.limits = limits
  }

  /// The recipe, or nil (with the reason in `warnings`) when it has no name.
  mutating func read() -> ImportedRecipe? {
    guard let name = short("name", label: "name") ?? short("headline", label: "name") else {
      warnings.append("a Recipe without a name was skipped")
      return nil
    }
    var recipe = ImportedRecipe(name: name)
    recipe.description = text("description", label: "description", maximum: limits.description)
    (recipe.ingredients, recipe.ingredientGroups) = ingredients()
    recipe.sections = InstructionReader.sections(JSONMember.value(object, "recipeInstructions"))
    recipe.yield = yield()
    recipe.prepTime = duration("prepTime", label: "prep time")
    recipe.cookTime = duration("cookTime", label: "cook time")
    recipe.totalTime = duration("totalTime", label: "total time")
    recipe.cuisine = joined("recipeCuisine", label: "cuisine")
    recipe.category = joined("recipeCategory", label: "category")
    recipe.keywords = keywords()
    recipe.author = author()
    recipe.image = image()
    recipe.url =
      address(Self.strings(JSONMember.value(object, "url")).first, label: "url")
      ?? pageURL.flatMap { address($0, label: "page address") }
    recipe.datePublished = date()
    recipe.warnings = warnings
    return recipe
  }

  // MARK: Texts

  /// The strings of a value that may be a string, a number, an array of them, or an
  /// object with a name (`{"@type": "Person", "name": …}`).
  static func strings(_ value: Any?) -> [String] {
    switch value {
    case let text as String: [text]
    case let number as NSNumber: [number.stringValue]
    case let array as [Any]: array.flatMap { strings($0) }
    case let object as [String: Any]: strings(JSONMember.value(object, "name") ?? JSONMember.value(object, "@value"))
    default: []
    }
  }

  /// Tidied text, cut at `maximum` characters with a warning; nil when empty.
  mutating func clipped(_ raw: String, label: String, maximum: Int) -> String? {
    let tidy = HTMLText.tidy(raw)
    guard !tidy.isEmpty else { return nil }
    guard tidy.count > maximum else { return tidy }
    warnings.append("\(label) cut to \(maximum) characters (it had \(tidy.count))")
    return String(tidy.prefix(maximum)).trimmingCharacters(in: .whitespaces)
  }

  private mutating func text(_ key: String, label: String, maximum: Int) -> String? {
    for raw in Self.strings(JSONMember.value(object, key)) {
      if let text = clipped(raw, label: label, maximum: maximum) { return text }
    }
    return nil
  }

  private mutating func short(_ key: String, label: String) -> String? {
    text(key, label: label, maximum: limits.shortText)
  }

  /// A string, a comma list or an array, as one "A, B" text.
  private mutating func joined(_ key: String, label: String) -> String? {
    let parts = Self.list(JSONMember.value(object, key))
    return parts.isEmpty ? nil : clipped(parts.joined(separator: ", "), label: label, maximum: limits.shortText)
  }

  /// Tidied, distinct items of a string, comma list or array.
  static func list(_ value: Any?) -> [String] {
    var seen = Set<String>()
    return strings(value).flatMap { $0.split(separator: ",") }.map { HTMLText.tidy(String($0)) }
      .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
  }

  private func keywords() -> [String] { Self.list(JSONMember.value(object, "keywords")) }

  private mutating func author() -> String? {
    let names = Self.strings(JSONMember.value(object, "author")).map(HTMLText.tidy).filter { !$0.isEmpty }
    return names.isEmpty ? nil : clipped(names.joined(separator: ", "), label: "author", maximum: limits.shortText)
  }

  // MARK: Ingredients

  /// The lines, tidied, each with the group it stands under: a heading line ("For the
  /// sauce:") starts a group, and so does a section object (`{"@type": "HowToSection",
  /// "name": "Sauce", "itemListElement": [...]}`); empty lines are left out. Groups are
  /// all empty when the recipe has none.
  private mutating func ingredients() -> ([String], [String?]) {
    let raw = Self.ingredientEntries(JSONMember.value(object, "recipeIngredient") ?? JSONMember.value(object, "ingredients"))
    var lines: [String] = []
    var groups: [String?] = []
    var heading: String?
    var section: String?
    for entry in raw {
      if entry.section != section {
        section = entry.section
        heading = section.flatMap { clipped($0, label: "ingredient group", maximum: limits.shortText) }
      }
      guard let tidy = clipped(entry.text, label: "ingredient line \(lines.count + 1)", maximum: limits.ingredientLine) else { continue }
      if Self.isGroupHeading(tidy) {
        heading = Self.headingName(tidy)
        continue
      }
      lines.append(tidy)
      groups.append(heading)
    }
    return (lines, groups.contains { $0 != nil } ? groups : [])
  }

  /// Each ingredient text with the name of the section object it came from, if any.
  static func ingredientEntries(_ value: Any?, section: String? = nil) -> [(text: String, section: String?)] {
    switch value {
    case let array as [Any]:
      return array.flatMap { ingredientEntries($0, section: section) }
    case let object as [String: Any]:
      if let items = JSONMember.value(object, "itemListElement") ?? JSONMember.value(object, "recipeIngredient") {
        return ingredientEntries(items, section: strings(JSONMember.value(object, "name")).first ?? section)
      }
      return strings(JSONMember.value(object, "text") ?? JSONMember.value(object, "name") ?? JSONMember.value(object, "@value"))
        .map { ($0, section) }
    default:
      return strings(value).map { ($0, section) }
    }
  }

  /// "For the sauce:" → "For the sauce"; "FILLING" stays.
  static func headingName(_ line: String) -> String? {
    var name = line
    while name.hasSuffix(":") { name = String(name.dropLast()).trimmingCharacters(in: .whitespaces) }
    return name.isEmpty ? nil : name
  }

  /// "For the sauce:", "DOUGH:", "Topping" in a list of lines: ends in a colon and has
  /// no digit, or is short, all capitals and has no digit.
  static func isGroupHeading(_ line: String) -> Bool {
    guard !line.contains(where: { $0.isNumber }) else { return false }
    if line.hasSuffix(":") { return true }
    let letters = line.filter(\.isLetter)
    return letters.count >= 3 && line.count <= 40 && letters.allSatisfy(\.isUppercase)
  }

  // MARK: Yield, times, dates, addresses

  /// "4 servings" from 4, "4", "4 servings", "Makes 24 cookies" or ["4", "4 servings"]
  /// (the most descriptive of several).
  private mutating func yield() -> String? {
    let options = Self.strings(JSONMember.value(object, "recipeYield") ?? JSONMember.value(object, "yield"))
      .map(HTMLText.tidy).filter { !$0.isEmpty }
    guard let best = options.first(where: { $0.contains(where: \.isLetter) }) ?? options.first else { return nil }
    return clipped(best, label: "yield", maximum: limits.shortText)
  }

  /// A normalized ISO 8601 duration; junk and negative values left out with a warning,
  /// zero ("PT0S", how pages say unknown) left out without one.
  private mutating func duration(_ key: String, label: String) -> String? {
    guard let raw = Self.strings(JSONMember.value(object, key)).first.map(HTMLText.tidy), !raw.isEmpty else { return nil }
    guard let seconds = Durations.seconds(raw) ?? LoosePageValues.seconds(raw) else {
      warnings.append("\(label) '\(raw)' is not a duration; left out")
      return nil
    }
    guard seconds <= Durations.maximumSeconds else {
      warnings.append("\(label) '\(raw)' is longer than 30 days; left out")
      return nil
    }
    return seconds > 0 ? Durations.format(seconds: seconds) : nil
  }

  /// "YYYY-MM-DD" from a date or a date-time ("2024-03-05T10:00:00+01:00"), or from the
  /// other forms pages write that `LoosePageValues` reads ("Jun 16, 2023").
  private mutating func date() -> String? {
    guard let raw = Self.strings(JSONMember.value(object, "datePublished")).first.map(HTMLText.tidy), !raw.isEmpty else {
      return nil
    }
    let day = String(raw.prefix(10))
    guard CivilDate(iso: day) != nil else {
      if let loose = LoosePageValues.day(raw) { return loose.description }
      warnings.append("date published '\(raw)' is not a date (YYYY-MM-DD); left out")
      return nil
    }
    return day
  }

  private mutating func image() -> String? {
    let value = JSONMember.value(object, "image")
    let candidates: [String]
    if let object = value as? [String: Any] {
      candidates = Self.strings(JSONMember.value(object, "url") ?? JSONMember.value(object, "contentUrl"))
    } else if let array = value as? [Any] {
      candidates = array.flatMap { element in
        (element as? [String: Any]).map { Self.strings(JSONMember.value($0, "url")) } ?? Self.strings(element)
      }
    } else {
      candidates = Self.strings(value)
    }
    return candidates.first.flatMap { address($0, label: "image") }
  }

  /// An absolute http(s) address; a relative one is resolved against the page's address,
  /// or left out with a warning when the page gave none.
  private mutating func address(_ raw: String?, label: String) -> String? {
    guard let raw = raw.map(HTMLText.tidy), !raw.isEmpty else { return nil }
    if let url = URL(string: raw), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil {
      return raw
    }
    if let base = pageURL.flatMap({ URL(string: $0) }), base.host != nil, let resolved = URL(string: raw, relativeTo: base),
      resolved.scheme.map({ ["http", "https"].contains($0.lowercased()) }) == true
    {
      return resolved.absoluteString
    }
    warnings.append("\(label) '\(raw)' is not a web address the page says how to reach; left out")
    return nil
  }
}
