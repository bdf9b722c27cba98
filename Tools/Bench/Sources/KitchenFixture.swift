import BenchBaselines
import Foundation
import Model
import Repositories

/// A kitchen with years of data, built through the repositories in one transaction:
/// categories, ingredients in them, tags, recipes with ingredient lines, weekly lists
/// with items, planned meals and meal plans. The mix per 100 records is fixed, so a small
/// and a large kitchen differ only in how many of each they hold — a category has as
/// many ingredients, a recipe as many lines, a list as many items, a week as many meals.
struct KitchenFixture: Sendable {
  /// Records per kind, for `records` records in all.
  let categories: Int
  let ingredients: Int
  let tags: Int
  let recipes: Int
  let lists: Int
  let meals: Int
  let mealPlans: Int

  static let linesPerRecipe = 5
  static let itemsPerList = 50
  static let mealTypes = ["breakfast", "lunch", "dinner", "snack"]
  /// The first planned day; meals fill the days after it, four a day.
  static let firstDay = DateComponents(
    calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2021, month: 1, day: 4)

  init(records: Int) {
    let unit = max(records, 100) / 100
    categories = 5 * unit
    ingredients = 30 * unit
    tags = unit
    recipes = 6 * unit
    lists = max(unit / 5, 1)
    meals = 15 * unit
    mealPlans = max(unit / 5, 1)
  }

  /// What the kitchen holds in all: the entities above plus recipe lines and list items.
  var records: Int {
    categories + ingredients + tags + recipes * (1 + Self.linesPerRecipe) + lists * (1 + Self.itemsPerList) + meals + mealPlans
  }

  static func category(_ index: Int) -> String { "aisle \(code(index))" }
  static func ingredient(_ index: Int) -> String { "herb \(code(index))" }
  static func tag(_ index: Int) -> String { "tag \(code(index))" }
  static func recipe(_ index: Int) -> String { "dish \(code(index))" }
  static func list(_ index: Int) -> String { "list \(code(index))" }
  static func mealPlan(_ index: Int) -> String { "plan \(code(index))" }

  private static let letters = Array("bcdfghjklmnpqrtvwxz")
  /// How many names share all but the last letter of their code: a block of consecutive
  /// indexes, as many in a small kitchen as in a large one.
  static let block = letters.count

  /// Four letters for `index` (below 19⁴), most significant first: every name of a kind
  /// has the same length, so a whole name matches itself only (completion, search), and
  /// the first three letters match one ``block`` of names.
  static func code(_ index: Int) -> String {
    var value = index, code = ""
    for _ in 0..<4 {
      code.insert(letters[value % letters.count], at: code.startIndex)
      value /= letters.count
    }
    return code
  }

  /// The civil date of planned day `index`, "YYYY-MM-DD".
  static func day(_ index: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    guard let start = calendar.date(from: firstDay), let date = calendar.date(byAdding: .day, value: index, to: start) else {
      return "2021-01-04"
    }
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 2021, parts.month ?? 1, parts.day ?? 4)
  }

  /// The days that hold meals.
  var plannedDays: Int { max(meals / Self.mealTypes.count, 1) }

  /// Builds the kitchen in `library`'s store (one transaction).
  func build(in library: Library) throws {
    try library.transaction { tx in
      for index in 0..<categories { _ = try tx.categories.getOrCreate(Self.category(index)) }
      for index in 0..<ingredients {
        _ = try tx.ingredients.getOrCreate(Self.ingredient(index), category: Self.category(index % categories))
      }
      for index in 0..<tags { _ = try tx.tags.getOrCreate(Self.tag(index)) }
      var recipeIDs: [String] = []
      recipeIDs.reserveCapacity(recipes)
      for index in 0..<recipes {
        let lines = (0..<Self.linesPerRecipe).map { line in
          "\(line + 1) cups \(Self.ingredient((index * Self.linesPerRecipe + line) % ingredients))"
        }
        let draft = RecipeDraft(
          name: Self.recipe(index), ingredients: lines, cuisine: index % 2 == 0 ? "Italian" : "Asian", tags: [Self.tag(index % tags)])
        guard case .created(let recipe) = try tx.recipes.create(draft, allowSimilar: true) else {
          throw BenchError("recipe \(index) not created")
        }
        recipeIDs.append(recipe.id.uuidString)
      }
      for index in 0..<lists {
        let list = try tx.lists.create(Self.list(index), week: Self.day(index * 7))
        for item in 0..<Self.itemsPerList {
          _ = try tx.lists.addItem("2 \(Self.ingredient((index * Self.itemsPerList + item) % ingredients))", to: list.id.uuidString)
        }
      }
      for index in 0..<meals {
        _ = try tx.meals.plan(
          date: Self.day(index / Self.mealTypes.count), mealType: Self.mealTypes[index % Self.mealTypes.count],
          recipe: recipeIDs[index % recipeIDs.count])
      }
      for index in 0..<mealPlans { _ = try tx.mealPlans.create(Self.mealPlan(index), week: Self.day(index * 7)) }
    }
  }
}
