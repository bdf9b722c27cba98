import Model
import Persistence

typealias Shelf = Category

func violations(store: some StoreWriter, names: [String]) throws -> [Category] {
  let produce = Category(displayName: "Produce")
  let dairy = Category.init(displayName: "Dairy")
  let typed: Category = .init(displayName: "Bakery")
  let optional: Category? = try .init(displayName: "Frozen")
  let qualified = Model.Category(displayName: "Spices")
  let tag = Tag(displayName: "quick")
  let book = Book(title: "Salt Fat Acid Heat")
  let record = Record(kind: EntityKind(rawValue: "category"))
  let aliased = Shelf(displayName: "Pantry")
  let made = names.map(Category.init)
  let labelled = names.map(Category(displayName:))
  try store.insertRecord(record)
  try store.tombstoneRecord(id: 1)
  try store.insertRecords([record])
  let list: [Category] = [.init(displayName: "A"), .init(displayName: "B")]
  let recipe = Recipe(displayName: "Soup")
  _ = (produce, dairy, typed, optional, qualified, tag, book, aliased, made, labelled, list, recipe)
  return [.init(displayName: "Returned")]
}

func single() -> Category {
  .init(displayName: "Implicit")
}

var computed: Category {
  return flag ? .init(displayName: "Computed") : (Category(displayName: "Other"))
}

func optionalStore(store: (any StoreWriter)?) throws {
  try store?.setMetadata("schema", "3")
}
