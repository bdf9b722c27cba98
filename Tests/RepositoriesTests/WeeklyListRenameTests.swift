import Foundation
import Model
import Repositories
import TestSupport
import Testing

@Suite struct WeeklyListRenameTests {
  @Test(arguments: TestBackend.allCases)
  func renamingAListKeepsItsItemsAndAllowsASharedName(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let list = try library.lists.create("Groceries", week: "2024-W50")
    _ = try library.lists.addItem("milk", to: "Groceries")
    _ = try library.lists.create("Big shop", week: "2024-W51")
    let renamed = try library.lists.rename("groceries", to: "  Big   shop ")
    #expect(renamed.id == list.id)
    #expect(renamed.displayName == "Big shop")
    #expect(try library.lists.items(of: list.id.uuidString).map(\.displayName) == ["milk"])
  }

  @Test(arguments: TestBackend.allCases)
  func renamingRefusesAnEmptyNameOrAMissingListAndChangesNothing(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    _ = try library.lists.create("Groceries", week: "2024-W50")
    #expect(try expectUnchanged(library) { _ = try library.lists.rename("Groceries", to: "  ") } == .emptyName(.weeklyList))
    #expect(try expectUnchanged(library) { _ = try library.lists.rename("Nope", to: "X") } == .notFound(.weeklyList, "Nope"))
  }
}
