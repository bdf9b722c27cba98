import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// A list is found by its name as people remember it — another case, without accents,
/// with other spacing — on every backend (on SQLite through its lookup column, which
/// follows every rename and delete).
@Suite struct ListLookupTests {
  @Test(arguments: TestBackend.allCases)
  func aListIsFoundByItsNameFoldedLikeEveryName(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let epicerie = try library.lists.create("Épicerie  du Coin", week: "2024-W50")
    for spelling in ["Épicerie du Coin", "epicerie du coin", "  EPICERIE   DU   COIN ", "Ｅpicerie du coin"] {
      #expect(try library.lists.find(spelling)?.id == epicerie.id, "\(spelling)")
    }
    #expect(try library.lists.find("epicerie") == nil)
    #expect(try library.lists.addItem("milk", to: "epicerie du coin").weeklyList == epicerie.id)
  }

  @Test(arguments: TestBackend.allCases)
  func twoListsWhoseNamesFoldAlikeAreAmbiguous(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let first = try library.lists.create("Groceries", week: "2024-W50")
    let second = try library.lists.create("GROCERIES", week: "2024-W51")
    let ids = [first.id, second.id].sorted { $0.uuidString < $1.uuidString }
    #expect(throws: RepositoryError.self) { _ = try library.lists.find("groceries") }
    do {
      _ = try library.lists.find("groceries")
    } catch RepositoryError.ambiguous(let kind, _, let found) {
      #expect(kind == .weeklyList)
      #expect(Set(found) == Set(ids))
    }
    // By id, either one.
    #expect(try library.lists.find(second.id.uuidString)?.id == second.id)
  }

  @Test(arguments: TestBackend.allCases)
  func theLookupFollowsRenamesAndDeletes(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let list = try library.lists.create("Weekly shop", week: "2024-W50")
    _ = try library.lists.rename("weekly shop", to: "Marché")
    #expect(try library.lists.find("weekly shop") == nil)
    #expect(try library.lists.find("marche")?.id == list.id)
    _ = try library.lists.delete("MARCHÉ")
    #expect(try library.lists.find("marche") == nil)
  }

  @Test(arguments: TestBackend.allCases)
  func onlyFieldsLookedUpByNameCanBeQueriedSo(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    #expect(throws: StoreError.self) {
      _ = try store.read { try $0.fetch(RecordQuery(.recipe, filters: [.hasNormalizedName("displayName", "soup")])) }
    }
  }
}
