import Model
import Repositories

// Category(displayName: "in a comment") is not a call, nor is Record() or store.insertRecord(r).
/// Doc comments too: `Category.init(displayName:)`.
func nearMisses(repository: CategoryRepository, names: [String]) throws -> String {
  let text = "Category(displayName: \"Produce\") and Record() and store.insertRecord(r)"
  let produce = try repository.getOrCreate(displayName: "Produce")
  let viaType = try CategoryRepository.getOrCreate(repository)(displayName: "Dairy")
  let name = categoryName(produce)
  let mine = MyCategory(displayName: "mine")
  let type = Category.self
  var numbers: [Int] = []
  numbers.insert(1, at: 0)
  var seen: Set<String> = []
  seen.insert("x")
  insertRecord()
  let category = produce
  let described = describe(category)
  let interpolated = "\(Category.self) \(Record.self)"
  let notTyped: MyCategory = .init(displayName: "y")
  let ints: [Int] = [.init(1)]
  let count: Int = .init(3)
  let closure: () -> Int = { .init(3) }
  let argument: Category = try repository.getOrCreate(displayName: .init("Bakery"))
  let kind = EntityKind(rawValue: "category")
  let categories: [Category] = []
  let key = \Category.displayName
  _ = (text, viaType, name, mine, type, described, interpolated, notTyped, ints, count, closure)
  _ = (argument, kind, categories, key)
  return name
}

func categoryName(_ category: Category) -> String { category.displayName }
func describe(_ category: Category) -> String { category.displayName }
func insertRecord() {}

struct MyCategory {
  init(displayName: String) {}
}

extension Category {
  var shouted: String { displayName.uppercased() }
}

func lookUp(repository: CategoryRepository) throws -> Category {
  let found = try repository.getOrCreate(displayName: "Produce")
  return found
}
