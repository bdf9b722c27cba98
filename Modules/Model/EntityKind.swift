/// Every kind of entity Forager stores.
///
/// The raw value is the stable name used in storage, change logs and sync payloads;
/// it never changes once released. Everything that varies per kind lives in the kind's
/// ``EntitySchema`` (see ``schema``), so code reads the schema instead of switching on kinds.
public enum EntityKind: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
  /// A grocery category (aisle): `Category`.
  case category
  /// A recipe tag: `Tag`.
  case tag
  /// A known ingredient: `IngredientTemplate`.
  case ingredientTemplate
  /// A cookbook: `Book`.
  case book
  /// A recipe: `Recipe`.
  case recipe
  /// One ingredient line of a recipe: `RecipeIngredient`.
  case recipeIngredient
  /// A meal planned for a date and meal slot: `PlannedMeal`.
  case plannedMeal
  /// A named meal plan: `MealPlan`.
  case mealPlan
  /// A weekly grocery list: `WeeklyList`.
  case weeklyList
  /// One item on a weekly list: `GroceryListItem`.
  case groceryListItem
  /// A shop with its own aisle order (schema v5).
  case groceryStore

  /// The schema that describes this kind's fields, relationships and identity.
  public var schema: EntitySchema { EntitySchema.byOrdinal[ordinal] }

  /// The case's position in `allCases`. Kinds key the dictionaries and sets of every
  /// hot path (schemas, sync's records by kind and id): hashing this number instead of
  /// the raw value, as a `RawRepresentable` would by default, skips a string hash each time.
  public var ordinal: Int {
    switch self {
    case .category: 0
    case .tag: 1
    case .ingredientTemplate: 2
    case .book: 3
    case .recipe: 4
    case .recipeIngredient: 5
    case .plannedMeal: 6
    case .mealPlan: 7
    case .weeklyList: 8
    case .groceryListItem: 9
    case .groceryStore: 10
    }
  }

  /// Hashes the kind by its position among the kinds.
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

  /// Parses a kind from user input: the raw value or a friendly spelling
  /// ("category", "ingredient-template", "ingredient template", "template", "meal").
  public init?(userInput: String) {
    let folded = userInput.lowercased().filter { $0.isLetter }
    if let kind = EntityKind.allCases.first(where: { $0.rawValue.lowercased() == folded }) {
      self = kind
      return
    }
    switch folded {
    case "categories": self = .category
    case "tags": self = .tag
    case "template", "templates", "ingredient", "ingredients", "ingredienttemplates": self = .ingredientTemplate
    case "books": self = .book
    case "recipes": self = .recipe
    case "meal", "meals", "plannedmeals": self = .plannedMeal
    case "mealplans", "plan", "plans": self = .mealPlan
    case "list", "lists", "weeklylists": self = .weeklyList
    case "item", "items", "listitem", "listitems", "grocerylistitems": self = .groceryListItem
    case "store", "stores", "shop", "shops", "grocerystores": self = .groceryStore
    default: return nil
    }
  }

  /// Orders kinds by raw value.
  public static func < (lhs: EntityKind, rhs: EntityKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
