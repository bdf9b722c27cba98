public import Foundation
import GRDB
import Migration
import Model

/// Writes realistic version-1 stores (``LegacySchema``) for tests and benchmarks: the
/// earlier app's data after sync had its way with it, duplicates of every kind included.
///
/// The same seed and size give the same file, byte for byte. About `recordCount` rows
/// are written, spread like a real kitchen: a few dozen categories and tags, hundreds of
/// ingredient templates and grocery items, recipes with their ingredient lines and tags,
/// weekly lists with items, meal plans with planned meals. Duplicates: categories spelled
/// "Produce", "produce", " PRODUCE"; templates "egg", "Eggs", "eggs"; grocery items that
/// name the same ingredient as a template; tags twice; two meals in one slot; planned
/// meals without a meal type (inferred from the hour during migration).
///
/// For measuring the dedup step at scale, ``duplicateGroups`` adds that many more groups
/// of duplicates on top of the realistic data (see there).
///
/// ```swift
/// let summary = try LegacyStoreGenerator(seed: 7, recordCount: 50_000).write(to: "/tmp/old.sqlite")
/// let bulk = try LegacyStoreGenerator(seed: 7, recordCount: 50_000, duplicateGroups: 100_000).write(to: "/tmp/dups.sqlite")
/// ```
public struct LegacyStoreGenerator: Sendable {
  /// What a generator wrote: rows per table.
  public struct Summary: Sendable, Hashable {
    public var rows: [String: Int]
    public var total: Int { rows.values.reduce(0, +) }
  }

  public var seed: UInt64
  /// The approximate number of rows to write, over all tables.
  public var recordCount: Int
  /// The zone of the device that planned the meals: planned meals are stored as instants
  /// at typical hours of the slot in this zone.
  public var timeZone: TimeZone
  /// How many categories and tags to write with a blank name (stage B refuses those).
  public var blankNames: Int
  /// The first day of the data; lists and plans follow week by week.
  public var startDate: Date
  /// How many groups of duplicates to write in addition to the realistic spread (0: none).
  ///
  /// Each group is two or three rows (one in four has three) whose names differ only in
  /// case and spacing, so they share one semantic key after stage A, and no other row has
  /// that key: the migration's dedup merges exactly this many more groups than without the
  /// option. The groups go a quarter to each unique kind the earlier app had —
  /// categories, tags, ingredient templates (written as `IngredientTemplate` or, half of
  /// them, `GroceryItem` rows with a staple flag, category and dates to fold), planned
  /// meals (two meals in one slot, on days before ``startDate``) — and each tag and
  /// template group is also named by one relationship to a random member (a `RecipeTag`
  /// link, a grocery list item), so dedup has references to re-point. They come from their
  /// own random sequence: the realistic rows are the same with or without them.
  public var duplicateGroups: Int

  public init(
    seed: UInt64 = 1, recordCount: Int = 600, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
    blankNames: Int = 0, startDate: Date = Date(timeIntervalSinceReferenceDate: 757_382_400),  // 2025-01-01
    duplicateGroups: Int = 0
  ) {
    self.seed = seed
    self.recordCount = recordCount
    self.timeZone = timeZone
    self.blankNames = blankNames
    self.startDate = startDate
    self.duplicateGroups = duplicateGroups
  }

  /// Writes a new version-1 file at `path` (replacing any file there).
  /// - Throws: when the file cannot be written.
  @discardableResult
  public func write(to path: String) throws -> Summary {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let queue = try DatabaseQueue(path: path)
    var builder = Builder(generator: self)
    try queue.write { db in
      try LegacySchema.create(in: db)
      try builder.fill(db)
      try builder.fillDuplicateGroups(db)
    }
    try queue.close()
    return Summary(rows: builder.rows)
  }
}

// MARK: - Building

extension LegacyStoreGenerator {
  fileprivate struct Builder {
    let generator: LegacyStoreGenerator
    var random: SeededGenerator
    var rows: [String: Int] = [:]
    let calendar: Calendar
    /// What the realistic part wrote, for the extra duplicate groups to refer to.
    var categoryNames: [String] = []
    var recipeIDs: [String] = []
    var listIDs: [String] = []

    init(generator: LegacyStoreGenerator) {
      self.generator = generator
      random = SeededGenerator(seed: generator.seed)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = generator.timeZone
      self.calendar = calendar
    }

    private var scale: Double { Double(max(generator.recordCount, 100)) }

    mutating func id() -> String {
      var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
      bytes[6] = (bytes[6] & 0x0F) | 0x40
      bytes[8] = (bytes[8] & 0x3F) | 0x80
      let uuid = UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
      return uuid.uuidString
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    /// Core Data's date storage: seconds since 2001-01-01.
    func stored(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate }

    mutating func insert(_ db: Database, _ table: String, _ values: [String: (any DatabaseValueConvertible)?]) throws {
      let columns = values.keys.sorted()
      let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
      let arguments: [DatabaseValue] = columns.map { column in (values[column] ?? nil)?.databaseValue ?? .null }
      try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
      rows[table, default: 0] += 1
    }

    /// A spelling of `name` that sync might have produced on another device.
    mutating func variant(_ name: String) -> String {
      switch int(0...5) {
      case 0: return name.lowercased()
      case 1: return name.uppercased()
      case 2: return " " + name + " "
      case 3: return name.replacingOccurrences(of: " ", with: "  ")
      default: return name
      }
    }

    mutating func fill(_ db: Database) throws {
      // Categories: every name once, some twice or more in other spellings.
      categoryNames = Self.categories
      categoryNames += (0..<Int(scale / 2_500)).map { "Aisle \($0 + 1)" }
      for name in categoryNames { try insert(db, "Category", ["id": id(), "name": name]) }
      try insert(db, "Category", ["id": id(), "name": "produce"])
      for _ in 0..<max(4, Int(scale / 2_000)) { try insert(db, "Category", ["id": id(), "name": variant(pick(categoryNames))]) }

      // Tags.
      var tagNames = Self.tags
      tagNames += (0..<Int(scale / 2_000)).map { "Collection \($0 + 1)" }
      var tagIDs: [String] = []
      for name in tagNames {
        let tag = id()
        tagIDs.append(tag)
        try insert(db, "Tag", ["id": tag, "name": name, "color": chance(0.6) ? pick(Self.colors) : nil])
      }
      for _ in 0..<max(3, Int(scale / 1_500)) {
        let tag = id()
        tagIDs.append(tag)
        try insert(db, "Tag", ["id": tag, "name": variant(pick(tagNames)), "color": chance(0.5) ? pick(Self.colors) : nil])
      }
      for _ in 0..<generator.blankNames {
        try insert(db, "Category", ["id": id(), "name": "  "])
        try insert(db, "Tag", ["id": id(), "name": ""])
      }

      // Ingredient names: bases, their plural and alias spellings, and varieties.
      var ingredientNames = Self.ingredients.map(\.singular)
      let varieties = Int(scale / 150)
      for index in 0..<varieties {
        ingredientNames.append(
          "\(Self.varieties[index % Self.varieties.count]) \(Self.ingredients[index / Self.varieties.count % Self.ingredients.count].singular)"
        )
      }
      func spelling(_ builder: inout Builder) -> String {
        if builder.chance(0.25) {
          let base = builder.pick(Self.ingredients)
          return builder.variant(builder.chance(0.5) ? base.plural : base.singular.capitalized)
        }
        return builder.pick(ingredientNames)
      }
      var templateIDs: [String] = []
      for name in ingredientNames {
        let template = id()
        templateIDs.append(template)
        try insert(db, "IngredientTemplate", ["id": template, "name": name])
      }
      for _ in 0..<max(6, Int(scale / 300)) {
        let template = id()
        templateIDs.append(template)
        try insert(db, "IngredientTemplate", ["id": template, "name": spelling(&self)])
      }
      try insert(db, "IngredientTemplate", ["id": id(), "name": "Eggs"])
      try insert(db, "IngredientTemplate", ["id": id(), "name": "eggs"])

      // Grocery items (the staples catalogue): name the same ingredients, categories by name.
      for _ in 0..<max(10, Int(scale / 120)) {
        let category: String? =
          chance(0.1) ? pick(["Baby", "Pet Supplies", "Pharmacy"]) : chance(0.85) ? variant(pick(categoryNames)) : nil
        let created = generator.startDate.addingTimeInterval(-Double(int(0...400)) * 86_400)
        try insert(
          db, "GroceryItem",
          [
            "id": chance(0.03) ? nil : id(), "name": spelling(&self), "category": category, "isStaple": chance(0.4) ? 1 : 0,
            "dateCreated": chance(0.9) ? stored(created) : nil,
            "lastPurchased": chance(0.5) ? stored(created.addingTimeInterval(Double(int(1...90)) * 86_400)) : nil,
          ])
      }

      // Recipes with ingredient lines and tags.
      for index in 0..<max(8, Int(scale * 0.072)) {
        let recipe = id()
        recipeIDs.append(recipe)
        let title = "\(pick(Self.adjectives)) \(pick(Self.dishes))" + (index % 7 == 6 ? " #\(index)" : "")
        let created = generator.startDate.addingTimeInterval(-Double(int(0...700)) * 86_400)
        let steps = (0..<int(1...5)).map { "Step \($0 + 1): \(pick(Self.steps))." }
        try insert(
          db, "Recipe",
          [
            "id": recipe, "title": chance(0.05) ? variant(title) : title, "instructions": steps.joined(separator: "\n"),
            "servings": int(0...8), "prepTime": pick([0, 5, 10, 15, 20, 30, 45]), "cookTime": pick([0, 10, 20, 35, 60, 90, 150]),
            "usageCount": int(0...30), "lastUsed": chance(0.6) ? stored(created.addingTimeInterval(Double(int(1...300)) * 86_400)) : nil,
            "dateCreated": chance(0.95) ? stored(created) : nil, "isFavorite": chance(0.2) ? 1 : 0,
            "sourceURL": chance(0.3) ? "https://example.com/recipes/\(index)" : nil,
          ])
        var tagged = Set<String>()
        for _ in 0..<int(0...3) where tagged.insert(pick(tagIDs)).inserted {}
        for tag in tagged.sorted() { try insert(db, "RecipeTag", ["recipe": recipe, "tag": tag]) }
        for order in 0..<int(3...8) {
          try insert(
            db, "Ingredient",
            [
              "id": chance(0.02) ? nil : id(), "name": chance(0.04) ? pick(Self.rareIngredients) : spelling(&self),
              "quantity": pick(Self.quantities), "unit": pick(Self.units), "notes": chance(0.2) ? pick(Self.notes) : nil,
              "sortOrder": order, "recipe": recipe,
            ])
        }
      }

      // Weekly lists with items.
      let weeks = max(3, Int(scale * 0.0108))
      for week in 0..<weeks {
        let list = id()
        listIDs.append(list)
        let created = generator.startDate.addingTimeInterval(Double(week * 7) * 86_400 + Double(int(8...20)) * 3_600)
        try insert(
          db, "WeeklyList",
          [
            "id": list, "name": "Week of \(created.formatted(.iso8601.year().month().day()))",
            "dateCreated": stored(created), "isCompleted": week < weeks - 2 ? 1 : 0, "notes": chance(0.2) ? "Costco run" : nil,
          ])
        for order in 0..<int(10...25) {
          let completed = chance(0.6)
          try insert(
            db, "GroceryListItem",
            [
              "id": id(), "name": spelling(&self), "quantity": chance(0.7) ? pick(["1", "2", "1 lb", "2 cups", "500 g", "a dozen"]) : nil,
              "isCompleted": completed ? 1 : 0, "dateCompleted": completed ? stored(created.addingTimeInterval(86_400)) : nil,
              "source": pick(["manual", "recipe", "staple", "Manual", nil]), "sortOrder": order, "weeklyList": list,
              "ingredientTemplate": chance(0.5) ? pick(templateIDs) : nil, "recipe": chance(0.2) ? pick(recipeIDs) : nil,
            ])
        }
      }

      // Meal plans, one per week, with planned meals; some slots planned twice.
      for week in 0..<max(2, Int(scale * 0.0132)) {
        let plan = id()
        let monday =
          calendar.date(byAdding: .day, value: week * 7, to: calendar.startOfDay(for: generator.startDate)) ?? generator.startDate
        try insert(
          db, "MealPlan",
          [
            "id": plan, "name": chance(0.5) ? "Week \(week + 1)" : "Dinner plan", "startDate": stored(monday),
            "dateCreated": stored(monday.addingTimeInterval(-86_400)),
          ])
        for day in 0..<7 {
          for slot in ["breakfast", "lunch", "dinner", "snack"] where chance(slot == "dinner" ? 0.9 : 0.35) {
            let copies = chance(0.12) ? 2 : 1
            for _ in 0..<copies { try insertMeal(db, plan: plan, monday: monday, day: day, slot: slot, recipes: recipeIDs) }
          }
        }
      }
    }

    /// The extra groups of ``LegacyStoreGenerator/duplicateGroups``, from their own random
    /// sequence so that the realistic rows do not depend on them.
    mutating func fillDuplicateGroups(_ db: Database) throws {
      guard generator.duplicateGroups > 0 else { return }
      let realistic = random
      defer { random = realistic }
      random = SeededGenerator(seed: generator.seed ^ 0x6475_706C_6963_6174)  // "duplicat"
      let firstDay = calendar.startOfDay(for: generator.startDate)
      let slots = [("breakfast", 8), ("lunch", 12), ("dinner", 19), ("snack", 16)]
      for group in 0..<generator.duplicateGroups {
        let members = chance(0.25) ? 3 : 2
        // Every spelling of a group's name folds to the same key; the number keeps keys apart.
        func spellings(_ name: String, _ builder: inout Builder) -> [String] {
          [name] + (1..<members).map { _ in builder.variant(name) }
        }
        switch group % 4 {
        case 0:
          for name in spellings("Bulk Aisle n\(group)", &self) { try insert(db, "Category", ["id": id(), "name": name]) }
        case 1:
          var tags: [String] = []
          for name in spellings("Bulk Label n\(group)", &self) {
            let tag = id()
            tags.append(tag)
            try insert(db, "Tag", ["id": tag, "name": name, "color": chance(0.5) ? pick(Self.colors) : nil])
          }
          if !recipeIDs.isEmpty { try insert(db, "RecipeTag", ["recipe": pick(recipeIDs), "tag": pick(tags)]) }
        case 2:
          var templates: [String] = []
          for name in spellings("Bulk pantry n\(group)", &self) {
            let template = id()
            templates.append(template)
            if chance(0.5) {
              try insert(db, "IngredientTemplate", ["id": template, "name": name])
            } else {
              let created = generator.startDate.addingTimeInterval(-Double(int(0...400)) * 86_400)
              try insert(
                db, "GroceryItem",
                [
                  "id": template, "name": name, "category": chance(0.5) ? variant(pick(categoryNames)) : nil,
                  "isStaple": chance(0.4) ? 1 : 0, "dateCreated": stored(created),
                  "lastPurchased": chance(0.5) ? stored(created.addingTimeInterval(Double(int(1...90)) * 86_400)) : nil,
                ])
            }
          }
          if !listIDs.isEmpty {
            try insert(
              db, "GroceryListItem",
              [
                "id": id(), "name": "Bulk pantry n\(group)", "isCompleted": 0, "source": "staple", "sortOrder": 100 + group / 4,
                "weeklyList": pick(listIDs), "ingredientTemplate": pick(templates),
              ])
          }
        default:
          // Two meals in one slot, on a day before the realistic plans start.
          let (slot, hour) = slots[group / 4 % 4]
          let day = calendar.date(byAdding: DateComponents(day: -2 - group / 16, hour: hour), to: firstDay) ?? firstDay
          let recipe: String? = recipeIDs.isEmpty ? nil : pick(recipeIDs)
          for _ in 0..<members {
            try insert(
              db, "PlannedMeal",
              [
                "id": id(), "date": stored(day), "mealType": slot,
                "recipe": chance(0.5) || recipeIDs.isEmpty ? recipe : pick(recipeIDs), "mealPlan": nil,
              ])
          }
        }
      }
    }

    /// A planned meal at a typical time of its slot; without its type 40% of the time, as
    /// the earlier app stored it before meal types existed.
    mutating func insertMeal(_ db: Database, plan: String, monday: Date, day: Int, slot: String, recipes: [String]) throws {
      let (hour, minute): (Int, Int) =
        switch slot {
        case "breakfast": (pick([7, 8, 9]), 30)
        case "lunch": (pick([12, 13]), 0)
        case "dinner": chance(0.5) ? (0, 0) : (pick([18, 19]), 30)
        default: (pick([22, 23]), 15)
        }
      let date = calendar.date(byAdding: DateComponents(day: day, hour: hour, minute: minute), to: monday) ?? monday
      try insert(
        db, "PlannedMeal",
        [
          "id": id(), "date": stored(date), "mealType": chance(0.4) ? nil : slot,
          "recipe": chance(0.95) ? pick(recipes) : nil, "mealPlan": chance(0.9) ? plan : nil,
        ])
    }

    static let categories = [
      "Produce", "Dairy", "Meat & Seafood", "Bakery", "Pantry", "Frozen", "Beverages", "Snacks",
      "Spices & Herbs", "Household", "Deli", "Canned Goods", "Crèmerie",
    ]
    static let tags = [
      "Weeknight", "Vegetarian", "Quick & Easy", "Leftovers", "Family Favorite", "Spicy", "Make Ahead",
      "Holiday", "Vegan", "Gluten-Free", "Kid Friendly", "Comfort Food",
    ]
    static let colors = ["green", "red", "blue", "orange", "#7a3ff2", "purple"]
    static let ingredients: [(singular: String, plural: String)] = [
      ("egg", "eggs"), ("tomato", "tomatoes"), ("onion", "onions"), ("garlic", "garlic"), ("milk", "milk"),
      ("butter", "butter"), ("flour", "flour"), ("sugar", "sugar"), ("salt", "salt"), ("black pepper", "black pepper"),
      ("olive oil", "olive oil"), ("chicken breast", "chicken breasts"), ("ground beef", "ground beef"), ("rice", "rice"),
      ("pasta", "pasta"), ("cheddar cheese", "cheddar cheese"), ("lemon", "lemons"), ("lime", "limes"),
      ("carrot", "carrots"), ("celery", "celery"), ("potato", "potatoes"), ("bell pepper", "bell peppers"),
      ("spring onion", "scallions"), ("cilantro", "cilantro"), ("basil", "basil"), ("spinach", "spinach"),
      ("mushroom", "mushrooms"), ("broccoli", "broccoli"), ("zucchini", "courgettes"), ("eggplant", "aubergines"),
      ("chickpea", "garbanzo beans"), ("black bean", "black beans"), ("tortilla", "tortillas"), ("bread", "bread"),
      ("yogurt", "yogurt"), ("heavy cream", "heavy cream"), ("bacon", "bacon"), ("salmon", "salmon"),
      ("shrimp", "shrimp"), ("tofu", "tofu"), ("ginger", "ginger"), ("soy sauce", "soy sauce"), ("honey", "honey"),
      ("oat", "oats"), ("almond", "almonds"), ("walnut", "walnuts"), ("apple", "apples"), ("banana", "bananas"),
      ("strawberry", "strawberries"), ("blueberry", "blueberries"), ("avocado", "avocados"), ("cucumber", "cucumbers"),
      ("lettuce", "lettuce"), ("cabbage", "cabbage"), ("corn", "corn"), ("pea", "peas"), ("green bean", "green beans"),
      ("crème fraîche", "creme fraiche"), ("leaf", "leaves"), ("berry", "berries"),
    ]
    static let varieties = ["roma", "cherry", "organic", "red", "baby", "smoked", "wild", "heirloom", "fresh", "frozen"]
    static let rareIngredients = ["fresh thyme", "star anise", "sumac", "gochujang", "miso paste", "saffron threads"]
    static let quantities: [String?] = ["1", "2", "3", "1/2", "1 1/2", "¾", "2-3", "a pinch", nil]
    static let units: [String?] = ["cup", "cups", "tbsp", "tsp", "g", "lb", "clove", nil, nil]
    static let notes = ["diced", "finely chopped", "to taste", "room temperature", "divided"]
    static let adjectives = ["Easy", "Mom's", "Spicy", "Classic", "Weeknight", "Creamy", "Grandma's", "Quick", "Smoky", "Lemon"]
    static let dishes = [
      "Lasagna", "Chili", "Tacos", "Fried Rice", "Curry", "Pancakes", "Omelette", "Stir Fry", "Risotto", "Soup",
      "Salad", "Pasta Bake", "Burgers", "Shakshuka", "Granola", "Banana Bread", "Salmon", "Dal", "Ramen", "Quiche",
    ]
    static let steps = [
      "Preheat the oven", "Chop the vegetables", "Brown the meat", "Simmer for twenty minutes", "Season to taste",
      "Whisk the eggs", "Boil the pasta", "Serve warm",
    ]
  }
}
