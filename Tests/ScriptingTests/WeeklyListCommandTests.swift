import CommandLanguage
import Foundation
import Model
import Repositories
import Scripting
import TestSupport
import Testing

/// `list new` and `list rename` under week identity, and lists made on several devices
/// through the command language.
@Suite struct WeeklyListCommandTests {
  @Test func listNewForAnExistingWeekAndNameSaysSoAndChangesNothing() throws {
    let harness = try Harness()
    let first = try harness.json("list new Weekly --week 2024-W50")
    #expect(first["created"] == .bool(true))
    let changes = try harness.session.library.store.changeLog().count
    let text = try harness.text("list new \"  weekly \" --week 2024-12-12")
    #expect(text.contains("found existing list 'Weekly' for 2024-W50 (id "), "\(text)")
    #expect(text.contains("nothing created"))
    #expect(try harness.json("list new WEEKLY --week 2024-W50")["created"] == .bool(false))
    #expect(try harness.session.library.store.changeLog().count == changes, "finding the list writes nothing")
    #expect(try harness.count(.weeklyList) == 1)
    // Another name of the week, and the same name in another week, are new lists.
    try harness.run("list new Costco --week 2024-W50\nlist new Weekly --week 2024-W51")
    #expect(try harness.count(.weeklyList) == 3)
    try harness.run("list add milk to 2024-W51 Weekly")
    try harness.expectFailure(
      "list show Weekly", .failed, mentions: ["2 weekly lists are named 'Weekly'", "the week and the name (2024-W50 Weekly)"])
    #expect(try harness.json("list items 2024-W51 weekly").rows("items").count == 1)
  }

  @Test func renamingOntoANameOfTheWeekIsRefusedAndChangesNothing() throws {
    let harness = try Harness()
    try harness.run("list new Weekly --week 2024-W50\nlist new Costco --week 2024-W50")
    try harness.expectFailure(
      "list rename Costco to weekly", .failed, mentions: ["cannot rename to 'weekly'", "weekly list 'Weekly' already exists"])
    #expect(try harness.json("list all").rows("lists").map { $0.string("name") } == ["Costco", "Weekly"])
    try harness.run("list rename Costco to Farmers market")
    #expect(try harness.json("list all").rows("lists").map { $0.string("name") } == ["Farmers market", "Weekly"])
  }

  /// Three devices (stores in files) each run `list new Weekly` offline; after `sync all`
  /// every device has one "Weekly" list with every item, and `list add … to Weekly` works.
  @Test func threeDevicesMakingWeeklyOfflineEndWithOneList() throws {
    let directory = try TemporaryDirectory.make()
    let harness = try Harness()
    try harness.run("cloud open '\(directory.appendingPathComponent("cloud.sqlite").path)'")
    for device in ["A", "B", "C"] {
      try harness.run("device add \(device) --store '\(directory.appendingPathComponent("\(device).sqlite").path)'")
    }
    for (device, item) in [("A", "2 l milk"), ("B", "6 eggs"), ("C", "1 l milk")] {
      try harness.run("device use \(device)\nlist new Weekly --week 2024-W50\nlist add \(item) to Weekly")
    }
    try harness.run("device use A\nlist check milk on Weekly")
    #expect(try harness.json("sync all")["settled"] == .bool(true))
    for device in ["A", "B", "C"] {
      try harness.run("device use \(device)")
      #expect(try harness.json("list all").rows("lists").map { $0.string("name") } == ["Weekly"], "\(device)")
      #expect(try harness.json("list items Weekly").rows("items").count == 3, "\(device)")
    }
    try harness.run("device use B\nlist add bread to Weekly\nsync all")
    for device in ["A", "B", "C"] {
      try harness.run("device use \(device)")
      let items = try harness.json("list items Weekly").rows("items")
      #expect(items.compactMap { $0.string("name") }.sorted() == ["bread", "eggs", "milk", "milk"], "\(device)")
      #expect(items.filter { $0["completed"] == .bool(true) }.count == 1, "\(device): A's milk, and only it, is checked")
    }
  }
}
