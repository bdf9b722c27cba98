import CommandLanguage
import Foundation
import Model
import Repositories
import Scripting
import Testing

/// history, trash, trash restore and undo through the command language.
@Suite("History, trash and undo commands")
struct HistoryCommandTests {
  @Test func historyNamesTheDeviceThatRenamedAndTrashRestoreBringsARecipeBack() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      recipe add "Tomato Pasta" --ingredient "2 tomatoes" --ingredient "200 g pasta"
      meal plan 2024-12-14 dinner "Tomato Pasta"
      sync all
      device use phone
      recipe rename "Tomato Pasta" to "Tomato Spaghetti"
      recipe delete "Tomato Spaghetti"
      sync all
      device use default
      """)
    let history = try harness.json("history recipe \"Tomato Spaghetti\"").rows("changes")
    let rename = try #require(history.first { $0.string("field") == "displayName" })
    #expect(rename.string("device") == "phone" && rename.string("old") == "Tomato Pasta" && rename.string("new") == "Tomato Spaghetti")
    #expect(history.contains { $0.string("field") == "exists" && $0.string("new") == "no" && $0.string("device") == "phone" })

    let trash = try harness.json("trash").rows("deleted")
    #expect(trash.map { $0.string("name") } == ["Tomato Spaghetti"])
    #expect(trash.first?.string("device") == "phone")

    let restored = try harness.json("trash restore recipe \"tomato spaghetti\"")
    #expect(restored["restored"]?.int("related") == 3, "two lines and the planned meal")
    try harness.run("sync all\ndevice use phone")
    #expect(try harness.count(.recipe) == 1 && harness.count(.plannedMeal) == 1 && harness.count(.recipeIngredient) == 2)
    #expect(try harness.json("trash").rows("deleted").isEmpty)
  }

  @Test func badNamesAndBoundsAreRefusedAndChangeNothing() throws {
    let harness = try Harness()
    try harness.run("category add Produce\ncategory delete Produce\ncategory add produce")
    try harness.expectFailure("trash restore category Produce", .failed, mentions: ["holds its name now and is kept"])
    try harness.expectFailure("trash restore recipe Nothing", .failed, mentions: ["no deleted recipe named 'Nothing'"])
    try harness.expectFailure("history recipe Nothing", .failed, mentions: ["recipe", "Nothing"])
    try harness.expectFailure("settings history --per-record 0", .usage, mentions: ["per-record"])
    try harness.expectFailure("settings history --total 10000001", .usage, mentions: ["total"])
    #expect(try harness.json("settings history --per-record 20").rows("bounds").isEmpty)
    #expect(try harness.text("settings history").contains("20 entries per record, 100000 in all"))
  }

  @Test func undoRevertsTheLastCommandsAndSaysWhatALaterSyncChanged() throws {
    let harness = try Harness()
    harness.session.keepsUndo = true
    try harness.expectFailure("undo", .failed, mentions: ["nothing to undo"])
    try harness.run("category add Produce\ncategory add Dairy\ncategory list\ncategory rename Produce to Vegetables")
    try harness.run("undo")
    #expect(try harness.session.library.categories.all().map(\.displayName).sorted() == ["Dairy", "Produce"])
    try harness.run("undo 2")
    #expect(try harness.count(.category) == 0)
    try harness.expectFailure("undo", .failed, mentions: ["nothing to undo"])

    try harness.run("cloud open --memory\ndevice add phone\ncategory add Bakery\nsync all\ndevice use phone")
    try harness.run("category rename Bakery to Bread\nsync all\ndevice use default")
    try harness.expectFailure("undo", .failed, mentions: ["a later change rewrote category 'Bread'", "--force"])
    let forced = try harness.json("undo --force")
    #expect(forced["undo"]?["overridden"] == .array([.string("category 'Bread'")]))
    #expect(try harness.count(.category) == 0)
  }
}
