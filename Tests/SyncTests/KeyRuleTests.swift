import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// Keys are functions of fields: a change whose key register is not the key its identity
/// fields give — or that writes a name without its key, or a key without its name — is set
/// aside on pull (and refused at the server's door), so no device shows a name under
/// another name's key.
@Suite("Keys from fields")
struct KeyRuleTests {
  static let tablet = "tablet-replica"
  static var time: Int64 { HostileBatchTests.pastTime }

  static func change(_ kind: EntityKind, id: UUID = UUID(), _ fields: [String: FieldValue]) -> RecordChange {
    var registers: [String: StampedValue] = [RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp(0))]
    for (name, value) in fields { registers[name] = StampedValue(value: value, stamp: stamp(0)) }
    return RecordChange(
      kind: kind, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: registers)
  }

  static func stamp(_ counter: Int32) -> Stamp { Stamp(time: time, counter: counter, replica: tablet) }

  static func batch(_ changes: [RecordChange], schema: Int = ChangeBatchCoding.schemaVersion) -> ChangeBatch {
    ChangeBatch(id: "\(tablet):1-\(changes.count)", replica: tablet, schemaVersion: schema, changes: changes)
  }

  /// The impostor of the issue: "Produce" keyed "dairy". It is set aside; Dairy stays, and
  /// `category add Dairy` finds Dairy.
  @Test(arguments: TestBackend.allCases)
  func aCategoryNamedProduceButKeyedDairyIsSetAside(_ backend: TestBackend) throws {
    let house = try HostileBatchTests.Household(backend, devices: 1)
    let dairy = try house.devices[0].library.categories.getOrCreate("Dairy")
    try house.engine(0).sync()
    let impostor = Self.change(.category, ["displayName": .text("Produce"), "normalizedName": .text("dairy")])
    _ = try house.cloud.push(Self.batch([impostor]))
    #expect(try house.engine(0).sync().setAside == 1)
    let aside = try #require(try house.engine(0).setAsideChanges().first)
    #expect(aside.field == "normalizedName" && aside.reason.contains("its fields give the key 'produce'"), "\(aside.reason)")
    #expect(try house.categories(0) == ["Dairy"])
    #expect(try house.devices[0].library.categories.getOrCreate("Dairy").id == dairy.id)
  }

  /// A planned meal whose slot key names another slot would hide that slot's meal.
  @Test func aMealWhoseSlotKeyNamesAnotherSlotIsSetAside() throws {
    let house = try HostileBatchTests.Household(.memory, devices: 1)
    let library = house.devices[0].library
    _ = try library.recipes.create(RecipeDraft(name: "Soup"))
    _ = try library.meals.plan(date: "2026-06-01", mealType: "dinner", recipe: "Soup")
    try house.engine(0).sync()
    let other = Self.change(
      .plannedMeal,
      ["date": .text("2026-06-02"), "mealType": .text("lunch"), "slotKey": .text("2026-06-01-dinner"), "servings": .null])
    _ = try house.cloud.push(Self.batch([other]))
    #expect(try house.engine(0).sync().setAside == 1)
    #expect(try house.engine(0).setAsideChanges().first?.field == "slotKey")
    #expect(try library.meals.meal(date: "2026-06-01", mealType: "dinner") != nil)
    #expect(try library.meals.meal(date: "2026-06-02", mealType: "lunch") == nil)
  }

  @Test func partialGroupsAndMissingInputsAreRefusedButAMigrationsKeyTravelsAlone() throws {
    func reason(_ change: RecordChange, schema: Int = ChangeBatchCoding.schemaVersion) -> String? {
      ChangeRules.identityViolation(in: change, schemaVersion: schema)?.reason
    }
    #expect(reason(Self.change(.category, ["displayName": .text("Produce"), "normalizedName": .text("produce")])) == nil)
    #expect(reason(Self.change(.category, ["displayName": .text("Produce")]))?.contains("is missing") == true)
    #expect(reason(Self.change(.category, ["normalizedName": .text("produce")]))?.contains("without the fields") == true)
    // The key an upgrade gave an old record travels alone, at a migration's stamp.
    let migrated = RecordChange(
      kind: .weeklyList, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: ["listKey": StampedValue(value: .text("2024-W50 weekly"), stamp: Stamp.migration)])
    #expect(reason(migrated) == nil)
    #expect(reason(Self.change(.weeklyList, ["listKey": .text("2024-W50 weekly")]))?.contains("without the fields") == true)
    let wok = try #require(Record.key(of: .book) { $0 == "title" ? .text("The Wok") : .null })
    let book = Self.change(.book, ["title": .text("The Wok"), "bookKey": .text(wok)])
    #expect(reason(book) == nil, "a book without an author is keyed by its title")
    // Batches of builds before every unique kind had a key are joined as written.
    let old = Self.change(.category, ["displayName": .text("Produce"), "normalizedName": .text("dairy")])
    #expect(reason(old, schema: ChangeRules.firstKeyCheckedSchema - 1) == nil)
    #expect(reason(old)?.contains("its fields give the key") == true)
    // Kinds without a unique key (recipes are detected, not merged) and other fields pass.
    #expect(reason(Self.change(.recipe, ["displayName": .text("Soup"), "titleKey": .text("stew")])) == nil)
    #expect(reason(Self.change(.category, ["sortOrder": .integer(3)])) == nil)
  }

  /// Generated inputs: names with mixed case, spaces, diacritics and plurals, written by
  /// honest devices through the repositories of every keyed kind, pass the rule as pushed
  /// (no device sets anything aside); the same changes with their key altered are refused.
  @Test func everyHonestWriteKeepsTheRuleAndEveryAlteredKeyBreaksIt() throws {
    var random = SeededGenerator(seed: 48)
    let words = ["Crème", "  TOMATOES ", "Leaves", "scallion", "Green  Onion", "Açaí", "Geese", "rice", "Mom's", "Ça va"]
    func name() -> String {
      (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random) ?? "x" }.joined(separator: " ")
    }
    let house = try HostileBatchTests.Household(.memory, devices: 2)
    let library = house.devices[0].library
    for round in 0..<30 {
      _ = try library.categories.getOrCreate(name())
      _ = try library.tags.getOrCreate(name())
      _ = try library.ingredients.getOrCreate(name())
      _ = try library.books.getOrCreate(title: name(), author: round % 2 == 0 ? name() : nil)
      _ = try library.lists.create(name(), week: "2026-W\(10 + round % 20)")
      _ = try library.stores.getOrCreate(name())
    }
    let category = try #require(try library.categories.all().first)
    _ = try library.categories.rename(category.id.uuidString, to: name() + " renamed")
    try house.engine(0).sync()
    #expect(try house.engine(1).sync().setAside == 0)

    let pushed = try house.cloud.pull(after: 0, limit: 100).flatMap(\.batch.changes)
    let keyed = pushed.filter { change in change.kind.schema.semanticKeyField.map { change.fields[$0] != nil } ?? false }
    #expect(keyed.count >= 150)
    for change in keyed {
      #expect(ChangeRules.identityViolation(in: change, schemaVersion: ChangeBatchCoding.schemaVersion) == nil, "\(change.kind.rawValue)")
      let field = try #require(change.kind.schema.semanticKeyField)
      var fields = change.fields
      let register = try #require(fields[field])
      fields[field] = StampedValue(value: .text((register.value.text ?? "") + "x"), stamp: register.stamp)
      let altered = RecordChange(
        kind: change.kind, id: change.id, createdAt: change.createdAt, updatedAt: change.updatedAt, ownerID: change.ownerID,
        sharingScope: change.sharingScope, fields: fields)
      #expect(ChangeRules.identityViolation(in: altered, schemaVersion: ChangeBatchCoding.schemaVersion) != nil, "\(change.kind.rawValue)")
    }
  }
}
