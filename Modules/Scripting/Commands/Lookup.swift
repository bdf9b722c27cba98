import CommandLanguage
import Foundation
import Model
import Repositories

/// Finds any named record through the repositories, for `expect` and `explain`.
enum Lookup {
  /// The kinds `expect exists/field` can name.
  static let namedKinds: [EntityKind] = [
    .category, .tag, .ingredientTemplate, .book, .recipe, .plannedMeal, .mealPlan, .weeklyList, .groceryStore,
  ]

  /// The live record of `kind` named `name` (or with that id), or nil.
  /// - Throws: ``ScriptError`` for a kind that has no names; repository errors (ambiguous names).
  static func find(_ kind: EntityKind, _ name: String, in library: Library, invocation: Invocation) throws -> Model.Record? {
    switch kind {
    case .category: return try library.categories.find(name)?.record
    case .tag: return try library.tags.find(name)?.record
    case .ingredientTemplate: return try library.ingredients.find(name)?.record
    case .book: return try library.books.find(name)?.record
    case .recipe: return try library.recipes.find(name)?.record
    case .weeklyList: return try library.lists.find(name)?.record
    case .groceryStore: return try library.stores.find(name)?.record
    case .mealPlan:
      return try library.mealPlans.all().first {
        $0.displayName.lowercased() == name.lowercased() || $0.id.uuidString.lowercased() == name.lowercased()
      }?.record
    case .plannedMeal:
      let parts = name.split(whereSeparator: { $0 == " " || $0 == "/" }).map(String.init)
      guard parts.count == 2 else {
        throw invocation.failure("name a planned meal by date and meal type, e.g. \"2024-12-13 dinner\"", argument: "name")
      }
      return try library.meals.meal(date: parts[0], mealType: parts[1])?.record
    case .recipeIngredient, .groceryListItem:
      throw invocation.failure("\(kind.label)s have no names of their own; check their recipe or list instead", argument: "kind")
    }
  }

  /// The display name of the record `id` of `kind`, or the id when it cannot be found.
  static func name(of id: UUID, kind: EntityKind, in library: Library) -> String {
    let reference = id.uuidString
    let found: String?? = try? {
      switch kind {
      case .category: try library.categories.find(reference)?.displayName
      case .tag: try library.tags.find(reference)?.displayName
      case .ingredientTemplate: try library.ingredients.find(reference)?.displayName
      case .book: try library.books.find(reference)?.title
      case .recipe: try library.recipes.find(reference)?.displayName
      case .weeklyList: try library.lists.find(reference)?.displayName
      case .groceryStore: try library.stores.find(reference)?.displayName
      default: nil
      }
    }()
    return (found ?? nil) ?? id.shortText
  }

  /// Friendly field names people may use in `expect field`.
  static let fieldAliases: [String: [EntityKind: String]] = [
    "name": [
      .category: "displayName", .tag: "displayName", .ingredientTemplate: "displayName", .book: "title",
      .recipe: "displayName", .mealPlan: "displayName", .weeklyList: "displayName", .groceryStore: "displayName",
    ],
    "key": [
      .category: "normalizedName", .tag: "normalizedName", .ingredientTemplate: "canonicalName", .book: "bookKey", .recipe: "titleKey",
      .plannedMeal: "slotKey", .weeklyList: "listKey", .groceryStore: "normalizedName",
    ],
    "cuisine": [.recipe: "recipeCuisine"], "description": [.recipe: "recipeDescription"], "yield": [.recipe: "recipeYield"],
    "category": [.recipe: "recipeCategory", .ingredientTemplate: "category"],
    "ingredients": [.recipe: "recipeIngredient"], "steps": [.recipe: "recipeInstructions"],
    "prep": [.recipe: "prepTime"], "cook": [.recipe: "cookTime"], "total": [.recipe: "totalTime"],
    "page": [.recipe: "sourcePageNumber"], "url": [.recipe: "sourceURL"], "source": [.recipe: "sourceType"],
    "favorite": [.recipe: "isFavorite"], "kind": [.ingredientTemplate: "ingredientKind"], "staple": [.ingredientTemplate: "isStaple"],
    "week": [.weeklyList: "weekIdentifier", .mealPlan: "weekIdentifier"], "completed": [.weeklyList: "isCompleted"],
    "meal": [.plannedMeal: "mealType"], "sort": [.category: "sortOrder"],
    "order": [.groceryStore: "aisleOrder"], "store": [.weeklyList: "store"], "amount": [.ingredientTemplate: "onHandAmount"],
    "servings": [.plannedMeal: "servings"],
  ]

  /// The schema field a user's field name means for `kind`.
  static func field(_ name: String, of kind: EntityKind) -> FieldDescriptor? {
    let fields = kind.schema.fields
    if let exact = fields.first(where: { $0.name == name }) { return exact }
    if let aliased = fieldAliases[name.lowercased()]?[kind] { return fields.first { $0.name == aliased } }
    return fields.first { $0.name.lowercased() == name.lowercased() }
  }

  /// A field value as text, references shown by name.
  static func text(_ value: FieldValue, _ descriptor: FieldDescriptor, in library: Library) -> String {
    switch value {
    case .reference(let id):
      guard let kind = descriptor.type.referencedKind else { return value.displayText }
      return name(of: id, kind: kind, in: library)
    case .referenceList(let ids):
      guard let kind = descriptor.type.referencedKind else { return value.displayText }
      return ids.map { name(of: $0, kind: kind, in: library) }.joined(separator: ", ")
    case .real(let number):
      return JSONValue.number(number).cellText
    default:
      return value.displayText
    }
  }
}

extension Lookup {
  /// The name a record shows: its kind's display field.
  static func displayName(_ record: Model.Record) -> String {
    record[record.kind.schema.displayField].displayText
  }
}
