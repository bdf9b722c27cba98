import Foundation
import Model
import Repositories
import Scripting
import TestSupport
import Testing

@testable import CommandLanguage

/// store …, list store, list show --store, pantry set, list add-plan and recipe cooked
/// --use-pantry through the command language.
@Suite struct WeeklyShopCommandTests {
  private func kitchen() throws -> Harness {
    let harness = try Harness()
    try harness.run(
      """
      category add Produce
      category add Dairy
      ingredient add milk --category Dairy
      ingredient add apples --category Produce
      list new Week --week 2024-W50
      list add 1 l milk to Week
      list add 3 apples to Week
      """)
    return harness
  }

  @Test func storesAreAddedOrderedAndFollowedByLists() throws {
    let harness = try kitchen()
    let added = try harness.json("store add \"Trader Joe's\" --json")
    #expect(added["created"] == .bool(true))
    #expect(try harness.text("store add \"trader joe's\"").contains("found existing store 'Trader Joe's'"))
    try harness.run("store order \"Trader Joe's\" Dairy")
    #expect(try harness.json("store list").rows("stores").first?["order"] == .array([.string("Dairy")]))
    #expect(try harness.json("store show \"Trader Joe's\"").rows("aisles").map { $0.string("category") } == ["Dairy", "Produce"])
    let aisles = { (command: String) in try harness.json(command).rows("items").compactMap { $0.string("aisle") } }
    #expect(try aisles("list show Week") == ["Produce", "Dairy"])
    #expect(try aisles("list show Week --store \"Trader Joe's\"") == ["Dairy", "Produce"])
    try harness.run("list store Week \"Trader Joe's\"")
    #expect(try harness.json("list show Week")["list"]?.string("store") == "Trader Joe's")
    #expect(try aisles("list show Week") == ["Dairy", "Produce"])
    try harness.run("list store Week --clear")
    #expect(try aisles("list show Week") == ["Produce", "Dairy"])
    try harness.run("store rename \"Trader Joe's\" to TJs\nstore delete tjs")
    #expect(try harness.count(.groceryStore) == 0)
  }

  @Test func storeNamesCompleteAndEveryNewCommandHasHelp() throws {
    let harness = try kitchen()
    try harness.run("store add \"Trader Joe's\"\nstore add Costco")
    let completer = Completer(context: harness.session)
    #expect(completer.candidates(before: "list show Week --store ", word: "Tr") == ["\"Trader Joe's\""])
    #expect(completer.candidates(before: "store order ", word: "Cos") == ["Costco"])
    #expect(completer.candidates(before: "store ", word: "or") == ["order"])
    for command in ["store add", "store order", "list add-plan", "list store", "pantry set", "recipe cooked"] {
      let help = try harness.text("\(command) --help")
      #expect(help.contains("usage: \(command)") && help.contains("examples:"), "\(command): \(help)")
    }
  }

  @Test func badStoreInputIsRefusedClearlyAndChangesNothing() throws {
    let harness = try kitchen()
    try harness.run("store add \"Trader Joe's\"")
    try harness.expectFailure(
      "list show Week --store \"Trader Jo\"", .failed, mentions: ["no store named 'Trader Jo'", "did you mean 'Trader Joe's'?"])
    try harness.expectFailure("store order \"Trader Joe's\" Dairy dairy", .failed, mentions: ["store order", "'Dairy' is named twice"])
    try harness.expectFailure("store add \"Bad\u{1B}name\"", .syntax, mentions: ["control character (U+001B)"])
    try harness.expectFailure("list store Week", .usage, mentions: ["list store: store", "missing; give STORE or --clear"])
    try harness.expectFailure("list store Week Costco --clear", .usage, mentions: ["not both"])
    try harness.expectFailure("stor add Costco", .usage, mentions: ["did you mean 'store'?"])
  }

  @Test func pantryAmountsShowOnTheListAndBadAmountsAreRefused() throws {
    let harness = try kitchen()
    try harness.run("pantry set milk 500 ml\npantry set apples 1 dozen")
    #expect(try harness.json("pantry list").rows("pantry").map { $0.string("amount") } == ["1 dozen", "500 ml"])
    let shown = try harness.json("list show Week --units metric")
    #expect(shown.rows("items").map { $0.string("amount") } == ["500 ml"])
    #expect(shown.rows("items").first?["pantry"]?.string("onHand") == "500 ml")
    #expect(try harness.text("list show Week --units metric").contains("1 line covered by the pantry hidden; --all shows them"))
    for amount in ["-5 g", "0", "many", "200000 g"] {
      try harness.expectFailure("pantry set milk \(amount)", .failed, mentions: ["pantry set", "amount '"])
    }
    try harness.expectFailure("pantry set milk", .usage, mentions: ["amount"])
  }

  @Test func addPlanAddsTheWeekOnceAndSaysWhatItSkipped() throws {
    let harness = try kitchen()
    try harness.run(
      """
      recipe add Porridge --yield "2 servings" --ingredient "100 g oats" --ingredient "1 cup milk" --ingredient "salt"
      ingredient set salt --staple yes
      meal plan 2024-12-10 breakfast Porridge --servings 4
      """)
    let first = try harness.json("list add-plan Week --week 2024-W50")
    #expect(first["added"] == .int(2) && first["skipped"] == .array([.string("salt")]))
    #expect(first["meals"] == .array([.string("2024-12-10-breakfast")]))
    let again = try harness.text("list add-plan Week --week 2024-12-11")
    #expect(again.contains("added 0 items from 0 planned meals of 2024-W50"), "\(again)")
    #expect(again.contains("2 lines were added by an earlier add-plan"))
    #expect(try harness.json("list items Week").rows("items").count == 4)
    try harness.expectFailure("list add-plan Week", .usage, mentions: ["--week", "missing"])
    try harness.expectFailure("list add-plan Week --week 2024-W77", .usage, mentions: ["--week"])
    try harness.expectFailure("meal plan 2024-12-11 dinner Porridge --servings 5000", .usage, mentions: ["servings", "at most 1,000"])
  }

  @Test func cookedWithThePantryShowsFirstInTheReplAndWritesInScripts() throws {
    let harness = try kitchen()
    try harness.run("recipe add Shake --yield 1 --ingredient \"250 ml milk\"\npantry set milk 1 l")
    harness.session.showsWritesFirst = true
    let preview = try harness.json("recipe cooked Shake --use-pantry --servings 2")
    #expect(preview["written"] == .bool(false))
    #expect(preview.rows("pantry").first?.string("after") == "500 ml")
    #expect(try harness.json("pantry list").rows("pantry").first { $0.string("name") == "milk" }?.string("amount") == "1 l")
    let written = try harness.json("recipe cooked Shake --use-pantry --servings 2 --yes")
    #expect(written["written"] == .bool(true) && written["usageCount"] == .int(1))
    #expect(try harness.json("pantry list").rows("pantry").first { $0.string("name") == "milk" }?.string("amount") == "500 ml")
    harness.session.showsWritesFirst = false
    #expect(try harness.json("recipe cooked Shake --use-pantry --scale 2")["written"] == .bool(true))
    #expect(try harness.json("pantry list").rows("pantry").contains { $0.string("name") == "milk" } == false)
    try harness.expectFailure("recipe cooked Shake --servings 2", .failed, mentions: ["only with --use-pantry"])
  }
}
