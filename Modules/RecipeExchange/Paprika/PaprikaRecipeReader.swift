import Foundation
import Normalization

/// One Paprika recipe's JSON (a `.paprikarecipe` entry, once decompressed) as an
/// ``ImportedRecipe``.
///
/// What maps where (Docs/IMPORT.md): name; ingredients, one line each; directions, one
/// step per line (a short line ending in a colon, "For the sauce:", is a section heading);
/// description; servings → yield; prep, cook and total times (free text such as
/// "1 hr 20 mins") → ISO 8601 durations by `Durations`; categories → tags; source →
/// author; source URL; notes, with the nutritional information after them; favourite.
/// What Forager keeps nowhere — the photo, the rating, the difficulty — is named in
/// ``ImportedRecipe/notKept``, never dropped silently.
struct PaprikaRecipeReader {
  let limits: ReadLimits
  private var warnings: [String] = []

  init(limits: ReadLimits) { self.limits = limits }

  func read(_ json: Data) -> PaprikaArchive.Entry.Content {
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
    } catch {
      return .failed("not a Paprika recipe: its JSON does not parse")
    }
    guard let object = parsed as? [String: Any] else { return .failed("not a Paprika recipe: its JSON is not an object") }
    var reader = self
    guard let recipe = reader.recipe(object) else { return .failed("not a Paprika recipe: it has no name") }
    return .recipe(recipe)
  }

  private mutating func recipe(_ object: [String: Any]) -> ImportedRecipe? {
    guard let name = clipped(Self.string(object["name"]), label: "name", maximum: limits.shortText) else { return nil }
    var recipe = ImportedRecipe(name: name)
    recipe.description = clipped(Self.string(object["description"]), label: "description", maximum: limits.description)
    (recipe.ingredients, recipe.ingredientGroups) = ingredients(Self.string(object["ingredients"]))
    recipe.sections = StepHeadings.sections(of: Self.lines(Self.string(object["directions"])).map(Self.step))
    recipe.yield = clipped(Self.string(object["servings"]), label: "servings", maximum: limits.shortText)
    recipe.prepTime = duration(object["prep_time"], label: "prep time")
    recipe.cookTime = duration(object["cook_time"], label: "cook time")
    recipe.totalTime = duration(object["total_time"], label: "total time")
    recipe.tags = Self.categories(object["categories"])
    recipe.author = clipped(Self.string(object["source"]), label: "source", maximum: limits.shortText)
    if let url = Self.string(object["source_url"])?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
      if let scheme = URL(string: url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) {
        recipe.url = url
      } else {
        warnings.append("source URL '\(url.prefix(80))' is not a web address; not kept")
      }
    }
    recipe.notes = notes(object)
    recipe.isFavorite = Self.bool(object["on_favorites"])
    recipe.notKept = Self.notKept(object)
    recipe.warnings = warnings
    return recipe
  }

  // MARK: Fields

  /// The ingredient lines, each with the group it stands under: a heading line ("For the
  /// dressing:", "SAUCE") starts a group and is no ingredient. Groups are all empty when
  /// the recipe has none.
  private mutating func ingredients(_ text: String?) -> ([String], [String?]) {
    var lines: [String] = []
    var groups: [String?] = []
    var heading: String?
    for line in Self.lines(text) {
      guard let tidy = clipped(line, label: "ingredient line \(lines.count + 1)", maximum: limits.ingredientLine) else { continue }
      if RecipeFields.isGroupHeading(tidy) {
        heading = RecipeFields.headingName(tidy)
        continue
      }
      lines.append(tidy)
      groups.append(heading)
    }
    return (lines, groups.contains { $0 != nil } ? groups : [])
  }

  /// A string, or a number written as one (servings: 4).
  static func string(_ value: Any?) -> String? {
    switch value {
    case let text as String: text
    case let number as NSNumber: number.stringValue
    default: nil
    }
  }

  static func bool(_ value: Any?) -> Bool {
    switch value {
    case let number as NSNumber: number.boolValue
    case let text as String: ["1", "true", "yes"].contains(text.lowercased())
    default: false
    }
  }

  /// Non-empty lines, trimmed.
  static func lines(_ text: String?) -> [String] {
    (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// A direction line; "For the sauce:" (short, ending in a colon, no full stop) becomes
  /// the heading step "## For the sauce", as ``PaprikaWriter`` writes headings.
  static func step(_ line: String) -> String {
    guard line.hasSuffix(":"), line.count <= 60, !line.dropLast().contains(where: { ".:;!?".contains($0) }),
      line.split(separator: " ").count <= 8
    else { return line }
    let name = line.dropLast().trimmingCharacters(in: .whitespaces)
    return name.isEmpty ? line : StepHeadings.heading(name)
  }

  /// Category names, distinct, without empty ones.
  static func categories(_ value: Any?) -> [String] {
    var seen = Set<String>()
    let names = (value as? [Any])?.compactMap { string($0) } ?? string(value).map { [$0] } ?? []
    return names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
  }

  /// Trimmed text cut at `maximum` characters with a warning; nil when empty.
  private mutating func clipped(_ raw: String?, label: String, maximum: Int) -> String? {
    guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
    guard text.count > maximum else { return text }
    warnings.append("\(label) cut to \(maximum) characters (it had \(text.count))")
    return String(text.prefix(maximum)).trimmingCharacters(in: .whitespaces)
  }

  /// An ISO 8601 duration; free text that is not a time is left out with a warning.
  private mutating func duration(_ value: Any?, label: String) -> String? {
    guard let text = Self.string(value)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
    if let iso = Durations.iso8601(text) { return iso }
    if Durations.seconds(text) != 0 { warnings.append("\(label) '\(text.prefix(80))' is not a duration Forager reads; not kept") }
    return nil
  }

  /// The notes, then the nutritional information under its own heading.
  private mutating func notes(_ object: [String: Any]) -> String? {
    let notes = Self.string(object["notes"])?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let nutrition = Self.string(object["nutritional_info"])?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    let parts = [notes, nutrition.isEmpty ? "" : "Nutrition:\n" + nutrition].filter { !$0.isEmpty }
    return clipped(parts.joined(separator: "\n\n"), label: "notes", maximum: limits.description)
  }

  /// What the recipe holds that Forager does not keep.
  static func notKept(_ object: [String: Any]) -> [String] {
    var dropped: [String] = []
    let photoKeys = ["photo_data", "photo", "photo_large", "image_url"]
    if photoKeys.contains(where: { !(string(object[$0]) ?? "").isEmpty }) || !((object["photos"] as? [Any]) ?? []).isEmpty {
      dropped.append("photo")
    }
    if let rating = (object["rating"] as? NSNumber)?.intValue ?? string(object["rating"]).flatMap(Int.init), rating > 0 {
      dropped.append("rating \(min(rating, 5)) of 5")
    }
    if let difficulty = string(object["difficulty"])?.trimmingCharacters(in: .whitespacesAndNewlines), !difficulty.isEmpty {
      dropped.append("difficulty '\(difficulty.prefix(40))'")
    }
    return dropped
  }
}
