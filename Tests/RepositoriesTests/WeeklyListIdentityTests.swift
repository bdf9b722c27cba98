import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// A weekly list is one per ISO week and name (Docs/DESIGN.md §2): the key is the week and the name
/// folded like every name, the id is name-based, and a rename onto a name the week already
/// has is refused.
@Suite struct WeeklyListIdentityTests {
  @Test(arguments: TestBackend.allCases)
  func aWeekHasOneListPerNameAndItsIdComesFromTheKey(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let (weekly, created) = try library.lists.getOrCreate("Weekly", week: "2024-W50")
    #expect(created)
    #expect(weekly.listKey == "2024-W50|weekly")
    #expect(weekly.id == DeterministicID.make(kind: .weeklyList, semanticKey: "2024-W50|weekly"))
    // The same week (named by a date in it) and the name folded alike: the same list, unchanged.
    let before = try library.store.changeLog()
    let (again, createdAgain) = try library.lists.getOrCreate("  WEEKLY ", week: "2024-12-12")
    #expect(!createdAgain && again == weekly)
    #expect(try library.store.changeLog() == before, "finding the list writes nothing")
    #expect(try library.lists.create("weekly", week: "2024-W50").id == weekly.id)
    // Other names of the week, and the same name in another week, are lists of their own.
    let costco = try library.lists.create("Costco", week: "2024-W50")
    let market = try library.lists.create("Farmers market", week: "2024-W50")
    let nextWeek = try library.lists.create("Weekly", week: "2024-W51")
    #expect(Set([weekly.id, costco.id, market.id, nextWeek.id]).count == 4)
    #expect(try library.lists.all(week: "2024-W50").map(\.displayName) == ["Costco", "Farmers market", "Weekly"])
  }

  @Test(arguments: TestBackend.allCases)
  func aListOfSeveralWeeksIsFoundByItsWeekAndName(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try library.lists.create("Weekly", week: "2024-W50")
    let second = try library.lists.create("Weekly", week: "2024-W51")
    #expect(throws: RepositoryError.ambiguous(.weeklyList, "Weekly", ids: [first.id, second.id].sorted(by: UUID.keeperOrder))) {
      _ = try library.lists.find("Weekly")
    }
    #expect(
      RepositoryError.ambiguous(.weeklyList, "Weekly", ids: [first.id]).description.contains("the week and the name (2024-W50 Weekly)"))
    #expect(try library.lists.find("2024-W51 weekly")?.id == second.id)
    #expect(try library.lists.find("2024-12-12 Weekly")?.id == first.id)
    #expect(try library.lists.addItem("milk", to: "2024-W51 Weekly").weeklyList == second.id)
    #expect(try library.lists.find("2024-W52 Weekly") == nil)
  }

  @Test(arguments: TestBackend.allCases)
  func renamingOntoANameTheWeekHasIsRefusedAndChangesNothing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let weekly = try library.lists.create("Weekly", week: "2024-W50")
    let costco = try library.lists.create("Costco", week: "2024-W50")
    _ = try library.lists.create("Big shop", week: "2024-W51")
    let refused = try expectUnchanged(library) { _ = try library.lists.rename("Costco", to: " weekly ") }
    #expect(refused == .renameCollision(.weeklyList, newName: "weekly", existingName: "Weekly", existingID: weekly.id))
    #expect(refused?.description.contains("weekly list 'Weekly' already exists") == true)
    // Another week's name is free, and a list may change its own name's case.
    let renamed = try library.lists.rename("Costco", to: "Big shop")
    #expect(renamed.id == costco.id && renamed.listKey == "2024-W50|big shop")
    #expect(try library.lists.rename("2024-W50 big shop", to: "BIG SHOP").listKey == "2024-W50|big shop")
    // The old name is free again: creating it makes a new list.
    #expect(try library.lists.getOrCreate("Costco", week: "2024-W50").created)
  }

  @Test(arguments: TestBackend.allCases)
  func aDeletedListsNameMakesANewListWithTheNextNameBasedID(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try library.lists.create("Weekly", week: "2024-W50")
    _ = try library.lists.addItem("milk", to: "Weekly")
    _ = try library.lists.delete("Weekly")
    let (second, created) = try library.lists.getOrCreate("Weekly", week: "2024-W50")
    #expect(created && second.id != first.id)
    #expect(second.id == DeterministicID.make(kind: .weeklyList, semanticKey: "2024-W50|weekly#2"))
    #expect(try library.lists.items(of: "Weekly").isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func badNamesAndWeeksAreRefusedAndChangeNothing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.lists.create("Weekly", week: "2024-W50")
    #expect(try expectUnchanged(library) { _ = try library.lists.create("   ", week: "2024-W50") } == .emptyName(.weeklyList))
    #expect(try expectUnchanged(library) { _ = try library.lists.create("Weekly", week: "2024-W54") } != nil)
    #expect(try expectUnchanged(library) { _ = try library.lists.rename("Weekly", to: "\u{200B}") } != nil)
  }

  @Test(arguments: TestBackend.allCases)
  func theStoreRefusesAListWhoseKeyIsNotItsWeekAndName(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let list = WeeklyList(
      meta: Fixtures.meta(), displayName: "Weekly", weekIdentifier: "2024-W50", listKey: "2024-W50|costco")
    #expect(throws: StoreError.self) { try store.write { try $0.insertRecord(list.record) } }
    #expect(try store.read { try $0.fetch(RecordQuery(.weeklyList)) }.isEmpty)
  }
}
