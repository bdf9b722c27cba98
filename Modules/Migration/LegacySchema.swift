package import GRDB

/// Schema version 1: the layout of the earlier Core Data app's data, as a Forager SQLite
/// file with `PRAGMA user_version = 1`.
///
/// One table per Core Data entity, named after it, one column per attribute, with the
/// earlier app's names (`name`, `title`) and types: ids are random UUIDs stored as
/// uppercase text (Foundation's `uuidString`), dates are seconds since 2001-01-01
/// (Core Data's reference date), booleans 0/1, prep and cook times whole minutes, and a
/// planned meal's `date` is an instant. There are no semantic keys and no constraints
/// besides the primary keys, so the duplicates sync created are all there: two
/// "Produce", several "eggs" templates, two dinners in one slot. To-one relationships
/// are columns holding the target's id; the one to-many relationship (recipe ↔ tags) is
/// the join table `RecipeTag`.
///
/// | Table | Columns |
/// |---|---|
/// | Category | id, name |
/// | Tag | id, name, color |
/// | IngredientTemplate | id, name |
/// | GroceryItem | id, name, category (a category *name*), isStaple, dateCreated, lastPurchased |
/// | Recipe | id, title, instructions, servings, prepTime, cookTime, usageCount, lastUsed, dateCreated, isFavorite, sourceURL |
/// | RecipeTag | recipe → Recipe, tag → Tag |
/// | Ingredient | id, name, quantity (text), unit, notes, sortOrder, recipe → Recipe |
/// | WeeklyList | id, name, dateCreated, isCompleted, notes |
/// | GroceryListItem | id, name, quantity, isCompleted, dateCompleted, source, sortOrder, weeklyList → WeeklyList, ingredientTemplate → IngredientTemplate, recipe → Recipe |
/// | MealPlan | id, name, startDate, dateCreated |
/// | PlannedMeal | id, date (instant), mealType (often missing), recipe → Recipe, mealPlan → MealPlan |
///
/// Core Data made `id` optional, so a row may have none; the migration then derives a
/// stable id from the table and row number.
public enum LegacySchema {
  /// The `user_version` of a version-1 file.
  public static let version = 1

  /// The tables of version 1, in creation order.
  public static let tableNames = [
    "Category", "Tag", "IngredientTemplate", "GroceryItem", "Recipe", "RecipeTag", "Ingredient",
    "WeeklyList", "GroceryListItem", "MealPlan", "PlannedMeal",
  ]

  /// The `CREATE TABLE` statements of version 1.
  public static let createStatements = [
    "CREATE TABLE Category (id TEXT, name TEXT)",
    "CREATE TABLE Tag (id TEXT, name TEXT, color TEXT)",
    "CREATE TABLE IngredientTemplate (id TEXT, name TEXT)",
    """
    CREATE TABLE GroceryItem (id TEXT, name TEXT, category TEXT, isStaple INTEGER NOT NULL DEFAULT 0,
      dateCreated REAL, lastPurchased REAL)
    """,
    """
    CREATE TABLE Recipe (id TEXT, title TEXT, instructions TEXT, servings INTEGER NOT NULL DEFAULT 0,
      prepTime INTEGER NOT NULL DEFAULT 0, cookTime INTEGER NOT NULL DEFAULT 0, usageCount INTEGER NOT NULL DEFAULT 0,
      lastUsed REAL, dateCreated REAL, isFavorite INTEGER NOT NULL DEFAULT 0, sourceURL TEXT)
    """,
    "CREATE TABLE RecipeTag (recipe TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (recipe, tag))",
    """
    CREATE TABLE Ingredient (id TEXT, name TEXT, quantity TEXT, unit TEXT, notes TEXT,
      sortOrder INTEGER NOT NULL DEFAULT 0, recipe TEXT)
    """,
    """
    CREATE TABLE WeeklyList (id TEXT, name TEXT, dateCreated REAL, isCompleted INTEGER NOT NULL DEFAULT 0, notes TEXT)
    """,
    """
    CREATE TABLE GroceryListItem (id TEXT, name TEXT, quantity TEXT, isCompleted INTEGER NOT NULL DEFAULT 0,
      dateCompleted REAL, source TEXT, sortOrder INTEGER NOT NULL DEFAULT 0, weeklyList TEXT,
      ingredientTemplate TEXT, recipe TEXT)
    """,
    "CREATE TABLE MealPlan (id TEXT, name TEXT, startDate REAL, dateCreated REAL)",
    "CREATE TABLE PlannedMeal (id TEXT, date REAL, mealType TEXT, recipe TEXT, mealPlan TEXT)",
  ]

  /// Creates the version-1 tables and stamps the version, inside the caller's transaction.
  package static func create(in db: Database) throws {
    for statement in createStatements { try db.execute(sql: statement) }
    try db.execute(sql: "PRAGMA user_version = \(version)")
  }
}
