public import Model
public import Persistence

/// Ready-made observed queries: what a kitchen app shows, as async sequences that yield
/// the current value and then a new one after every commit that can change it (a write
/// through any repository, a sync's pull, an import, another process's commit to the same
/// file). Each query reads exactly what the repository method of the same name reads and
/// names the kinds it reads, so a commit of other kinds does not wake it.
///
/// ```swift
/// for try await list in library.live.shoppingList("Groceries") {
///   print(list.aisles.map { "\($0.category?.displayName ?? "Other"): \($0.lines.count)" })
/// }
/// ```
public struct LiveQueries: Sendable {
  let store: any Store

  /// The kinds ``shoppingList(_:units:includeDone:store:)`` reads.
  public static let shoppingListRegion = StoreRegion(.weeklyList, .groceryListItem, .ingredientTemplate, .category, .groceryStore)
  /// The kinds ``week(_:)`` reads.
  public static let weekRegion = StoreRegion(.plannedMeal, .recipe)
  /// The kinds ``recipe(_:)`` reads.
  public static let recipeRegion = StoreRegion(.recipe, .recipeIngredient, .ingredientTemplate, .book, .tag, .plannedMeal)
  /// The kinds ``pantry()`` reads.
  public static let pantryRegion = StoreRegion(.ingredientTemplate)

  /// Any query over a library, observed: `query` runs on a library that reads inside the
  /// observation's read transaction and refuses writes (``RepositoryError/readOnly``).
  ///
  /// ```swift
  /// let tags = library.live.observe(StoreRegion(.tag)) { try $0.tags.all().count }
  /// ```
  /// - Parameters:
  ///   - region: every kind `query` reads; a kind left out makes its values stale.
  ///   - query: computes the value from a library that only reads.
  public func observe<Value: Sendable>(
    _ region: StoreRegion, _ query: @escaping @Sendable (Library) throws -> Value
  ) -> StoreObservation<Value> {
    store.observe(region) { [store] reader in try query(Library(context: .reading(store, in: reader))) }
  }

  /// A weekly list by aisle, as ``WeeklyListRepository/shoppingList(_:units:includeDone:store:)``
  /// shows it (`list show`).
  /// - Throws (in the sequence): ``RepositoryError/notFound(_:_:)`` once the list or store
  ///   is gone, which ends it.
  public func shoppingList(
    _ listNameOrID: String, units: UnitPreference? = nil, includeDone: Bool = false, store shop: String? = nil
  ) -> StoreObservation<ShoppingList> {
    observe(Self.shoppingListRegion) { library in
      try library.lists.shoppingList(listNameOrID, units: units, includeDone: includeDone, store: shop)
    }
  }

  /// The planned meals of an ISO week, as ``PlannedMealRepository/week(_:)`` reads them.
  public func week(_ weekOrDate: String) -> StoreObservation<PlannedMealRepository.Week> {
    observe(Self.weekRegion) { try $0.meals.week(weekOrDate) }
  }

  /// A recipe with its lines, book, tags and planned meals, as
  /// ``RecipeRepository/details(_:)`` reads them.
  public func recipe(_ nameOrID: String) -> StoreObservation<RecipeDetails> {
    observe(Self.recipeRegion) { try $0.recipes.details(nameOrID) }
  }

  /// The ingredients on hand, as ``PantryRepository/all()`` lists them.
  public func pantry() -> StoreObservation<[IngredientTemplate]> {
    observe(Self.pantryRegion) { try $0.pantry.all() }
  }
}

extension Library {
  /// This library's store's ready-made observed queries.
  public var live: LiveQueries { LiveQueries(store: store) }
}
