import Foundation

/// One schema.org Recipe as read from a page or a JSON-LD file: plain, tidied text
/// (entities decoded, tags stripped, whitespace collapsed), ready to become a recipe
/// draft. Nothing here is stored yet.
public struct ImportedRecipe: Sendable, Hashable {
  /// A run of steps under an optional heading (schema.org HowToSection).
  public struct Section: Sendable, Hashable {
    /// The section's name ("For the sauce"); nil for steps outside any section.
    public var name: String?
    /// The section's steps, in order.
    public var steps: [String]

    /// A section of `steps` under an optional heading.
    public init(name: String? = nil, steps: [String]) {
      self.name = name
      self.steps = steps
    }
  }

  /// The recipe's title.
  public var name: String
  /// The recipe's description.
  public var description: String?
  /// The ingredient lines as written, without group headings ("For the sauce:").
  public var ingredients: [String]
  /// The group each ingredient line stands under ("For the sauce"), by position; empty
  /// when the recipe does not group its ingredients.
  public var ingredientGroups: [String?] = []
  /// The instructions, as sections of steps.
  public var sections: [Section]
  /// What it makes ("4 servings").
  public var yield: String?
  /// ISO 8601 durations, normalized ("PT1H20M"); nil when the page gave none, zero or junk.
  public var prepTime: String?
  /// The cooking time, as an ISO 8601 duration.
  public var cookTime: String?
  /// The total time, as an ISO 8601 duration.
  public var totalTime: String?
  /// The cuisine ("Italian").
  public var cuisine: String?
  /// The recipe's category ("Dessert").
  public var category: String?
  /// Search keywords.
  public var keywords: [String]
  /// The recipe's author's name.
  public var author: String?
  /// The first image's address, absolute when the page said where it lives.
  public var image: String?
  /// The recipe's own address (schema.org `url`), made absolute against the page's address.
  public var url: String?
  /// A civil date "YYYY-MM-DD".
  public var datePublished: String?
  /// What was left out or changed while reading, one sentence each.
  public var warnings: [String]
  /// Tags (a recipe app's categories, as Paprika's); schema.org pages give none.
  public var tags: [String]
  /// The cook's own notes (Paprika's notes); schema.org pages give none.
  public var notes: String?
  /// Whether the source marked it a favorite (Paprika's "on favorites").
  public var isFavorite: Bool
  /// What the source held that Forager keeps nowhere, shown beside the recipe when it is
  /// imported: "photo", "rating 4 of 5".
  public var notKept: [String]

  /// A recipe with a name; every other field is optional.
  public init(
    name: String, description: String? = nil, ingredients: [String] = [], sections: [Section] = [], yield: String? = nil,
    prepTime: String? = nil, cookTime: String? = nil, totalTime: String? = nil, cuisine: String? = nil,
    category: String? = nil, keywords: [String] = [], author: String? = nil, image: String? = nil, url: String? = nil,
    datePublished: String? = nil, warnings: [String] = [], tags: [String] = [], notes: String? = nil, isFavorite: Bool = false,
    notKept: [String] = []
  ) {
    self.name = name
    self.description = description
    self.ingredients = ingredients
    self.sections = sections
    self.yield = yield
    self.prepTime = prepTime
    self.cookTime = cookTime
    self.totalTime = totalTime
    self.cuisine = cuisine
    self.category = category
    self.keywords = keywords
    self.author = author
    self.image = image
    self.url = url
    self.datePublished = datePublished
    self.warnings = warnings
    self.tags = tags
    self.notes = notes
    self.isFavorite = isFavorite
    self.notKept = notKept
  }

  /// Every step in order, a section's name written as a heading step "## NAME" before
  /// its steps: how Forager keeps section names in a recipe's instructions.
  public var instructions: [String] {
    sections.flatMap { section in (section.name.map { [StepHeadings.heading($0)] } ?? []) + section.steps }
  }
}

/// How a section heading is kept among a recipe's steps: a step "## For the sauce".
public enum StepHeadings {
  static let prefix = "## "

  /// "## NAME".
  public static func heading(_ name: String) -> String { prefix + name }

  /// The section name when the step is a heading, else nil.
  public static func name(of step: String) -> String? {
    guard step.hasPrefix(prefix) else { return nil }
    let name = step.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    return name.isEmpty ? nil : name
  }

  /// Steps grouped by their heading steps.
  public static func sections(of steps: [String]) -> [ImportedRecipe.Section] {
    var sections: [ImportedRecipe.Section] = []
    for step in steps {
      if let name = name(of: step) {
        sections.append(.init(name: name, steps: []))
      } else if sections.isEmpty {
        sections.append(.init(steps: [step]))
      } else {
        sections[sections.count - 1].steps.append(step)
      }
    }
    return sections
  }
}

/// How ingredient groups are written where a format has only lines (Paprika's
/// ingredients, schema.org's `recipeIngredient`): a heading line "NAME:" before each
/// group's first line, which both readers take back as the group.
enum IngredientHeadings {
  /// The lines with a heading line wherever the group changes to a named one.
  static func lines(_ lines: [String], groups: [String?]) -> [String] {
    guard groups.count == lines.count, groups.contains(where: { $0 != nil }) else { return lines }
    var result: [String] = []
    var current: String?
    for (line, group) in zip(lines, groups) {
      if group != current, let group { result.append(group + ":") }
      current = group
      result.append(line)
    }
    return result
  }
}
