public import Foundation
public import Model
public import Persistence

/// The entry point to a store's data: one repository per kind, all creating entities
/// only through get-or-create and the identity rules of Docs/DESIGN.md §2.
///
/// Each repository call runs in its own atomic transaction; ``transaction(_:)`` groups
/// several calls into one.
///
/// ```swift
/// let library = Library(store: try factory.open("memory"))
/// let produce = try library.categories.getOrCreate("Produce")
/// try library.transaction { tx in
///   _ = try tx.books.getOrCreate(title: "The Wok", author: "J. Kenji López-Alt")
///   _ = try tx.recipes.create(RecipeDraft(name: "Egg Fried Rice", ingredients: ["2 eggs", "3 cups rice"]))
/// }
/// ```
public struct Library {
  let context: RepositoryContext

  /// A library over `store`.
  /// - Parameters:
  ///   - store: the store the repositories read and write.
  ///   - ownerID: recorded as the owner of every record this library creates.
  ///   - origin: recorded on every change-log entry this library writes.
  ///   - now: the clock for timestamps; tests pass a fixed one.
  ///   - ids: where the ids of recipes, lists, items and meal plans come from; tests and
  ///     simulations pass `IDSource/seeded(_:)` so a seed replays exactly.
  ///   - journal: notes what this library's writes change while it records (for undo).
  public init(
    store: any Store, ownerID: String = RecordMetadata.localOwner, origin: ChangeOrigin = .local,
    now: @escaping () -> Date = Date.init, ids: IDSource = .random, journal: ChangeJournal? = nil
  ) {
    context = RepositoryContext(store: store, now: now, ids: ids, ownerID: ownerID, origin: origin, journal: journal, writer: nil)
  }

  init(context: RepositoryContext) { self.context = context }

  /// The store this library reads and writes.
  public var store: any Store { context.store }

  /// Whether this library is bound to an open transaction (inside ``transaction(_:)``):
  /// work that opens its own transactions on the store, like sync, must not run then.
  public var isInTransaction: Bool { context.isBound }

  /// Grocery categories (aisles), keyed by normalized name.
  public var categories: CategoryRepository { CategoryRepository(context: context) }
  /// Recipe tags, keyed by normalized name.
  public var tags: TagRepository { TagRepository(context: context) }
  /// Ingredient templates, keyed by canonical name, with aliases.
  public var ingredients: IngredientTemplateRepository { IngredientTemplateRepository(context: context) }
  /// Cookbooks, keyed by title and author.
  public var books: BookRepository { BookRepository(context: context) }
  /// Recipes with their ingredient lines.
  public var recipes: RecipeRepository { RecipeRepository(context: context) }
  /// Planned meals, keyed by date and meal slot.
  public var meals: PlannedMealRepository { PlannedMealRepository(context: context) }
  /// Meal plans: named weeks of planned meals.
  public var mealPlans: MealPlanRepository { MealPlanRepository(context: context) }
  /// Weekly grocery lists and their items.
  public var lists: WeeklyListRepository { WeeklyListRepository(context: context) }
  /// What the kitchen has on hand.
  public var pantry: PantryRepository { PantryRepository(context: context) }
  /// Grocery stores and their aisle orders.
  public var stores: GroceryStoreRepository { GroceryStoreRepository(context: context) }

  /// Runs `body` in one atomic transaction: every repository call on the library it is
  /// given joins it, and if `body` throws, nothing it did is kept.
  public func transaction<T>(_ body: (Library) throws -> T) throws -> T {
    try context.write { writer in try body(Library(context: context.bound(to: writer))) }
  }

  /// How many live records of each kind the store holds (`StoreReader/liveRecordCount(_:)`:
  /// on SQLite a counter per kind, not a count of the rows).
  public func counts() throws -> [EntityKind: Int] {
    try context.read { reader in
      try Dictionary(uniqueKeysWithValues: EntityKind.allCases.map { ($0, try reader.liveRecordCount($0)) })
    }
  }

  /// Live records that share a semantic key, grouped; for recipes these are the
  /// possible duplicates to review, for unique kinds they should never exist.
  public func duplicates(of kinds: [EntityKind] = EntityKind.allCases) throws -> [DuplicateGroup] {
    try context.read { reader in
      var groups: [DuplicateGroup] = []
      for kind in kinds where kind.schema.semanticKeyField != nil {
        let records = try reader.fetch(RecordQuery(kind, sort: []))
        let byKey = Dictionary(grouping: records, by: { $0.semanticKey ?? "" })
        for (key, members) in byKey where members.count > 1 && !key.isEmpty {
          let sorted = members.sorted { UUID.keeperOrder($0.id, $1.id) }
          groups.append(DuplicateGroup(kind: kind, key: key, members: sorted.map(DuplicateGroup.Member.init)))
        }
      }
      return groups.sorted { ($0.kind.rawValue, $0.key) < ($1.kind.rawValue, $1.key) }
    }
  }
}

/// Live records of one kind that share a semantic key.
public struct DuplicateGroup: Sendable, Hashable {
  /// One record of a duplicate group.
  public struct Member: Sendable, Hashable {
    /// The record's id.
    public let id: UUID
    /// The record's name as shown.
    public let name: String
    /// When the record was created.
    public let createdAt: Date

    init(_ record: Record) {
      id = record.id
      name = record.displayText
      createdAt = record.meta.createdAt
    }
  }

  /// The kind of the records.
  public let kind: EntityKind
  /// The semantic key they share.
  public let key: String
  /// Smallest id first: the record a merge keeps.
  public let members: [Member]
}
