import Foundation
import TestSupport
import Testing

/// Bad input at the command level, as a user types it into a script: each line is
/// refused with the exit status of its kind (2: found when the script is read, 1: the
/// command ran and refused), a message naming what was wrong, and a store left exactly as
/// it was.
@Suite struct BadInputTableTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let line: String
    let status: Int32
    let mentions: String
    var testDescription: String { line }
  }

  static let cases: [Case] = [
    Case(
      line: "list add milk --quantity -3 to Groceries", status: 1,
      mentions: "quantity '-3': the amount must be a number above 0 and at most 100,000"),
    Case(line: "list add milk --quantity 1e400 to Groceries", status: 1, mentions: "quantity '1e400'"),
    Case(line: "list add eggs --quantity 0 to Groceries", status: 1, mentions: "quantity '0'"),
    Case(line: "list add \"-2 eggs\" --quantity 100001 to Groceries", status: 1, mentions: "at most 100,000"),
    Case(line: "recipe add R --ingredient \"99999999999999999999999 cups flour\"", status: 1, mentions: "ingredient line 1"),
    Case(line: "recipe add R --prep 99999999999h", status: 1, mentions: "prep time '99999999999h'"),
    Case(line: "recipe add R --cook PT-5M", status: 1, mentions: "cook time 'PT-5M'"),
    Case(line: "category add X --sort -5", status: 2, mentions: "--sort: '-5' is out of range; give a whole number from 0 to 1,000,000"),
    Case(line: "category add X --sort 1000001", status: 2, mentions: "--sort: '1000001' is out of range"),
    Case(line: "pantry set rice a handful", status: 1, mentions: "amount 'a handful': does not start with a number"),
    Case(
      line: "list add \"\u{2212}4 pears\" to Groceries", status: 1, mentions: "item '\u{2212}4 pears': the amount must be a number above 0"),
    Case(line: "list add-plan Groceries", status: 2, mentions: "list add-plan: --week: missing; give --week WEEK"),
    Case(line: "sync wait --until caught-up --timeout 0", status: 2, mentions: "--timeout: '0' is out of range"),
    Case(line: "recipe show Soup --servings 2 --scale 2", status: 2, mentions: "--scale: give either --servings or --scale, not both"),
    Case(line: "category add \"\"", status: 2, mentions: "name: is empty"),
    Case(line: "category add \"A\u{0}B\"", status: 2, mentions: "control character (U+0000)"),
    Case(line: "expect count category abc", status: 2, mentions: "'abc' is neither a count"),
    Case(line: "meal plan 2024-02-30 dinner Soup", status: 2, mentions: "'2024-02-30' is not a date"),
    Case(line: "meal plan 2024-12-13 brunch Soup", status: 2, mentions: "'brunch' is not a meal type"),
    Case(line: "open /nonexistent/forager/x.sqlite", status: 1, mentions: "the directory /nonexistent/forager does not exist"),
    Case(line: "cloud open /nonexistent/forager/c.sqlite", status: 1, mentions: "the directory /nonexistent/forager does not exist"),
    Case(
      line: "device add t --store /nonexistent/forager/t.sqlite", status: 1, mentions: "the directory /nonexistent/forager does not exist"),
    Case(line: "sync status --events 101", status: 2, mentions: "--events: '101' is out of range; give a whole number from 0 to 100"),
    Case(line: "category add X \\", status: 2, mentions: "ends with '\\' but the next line is blank"),
  ]

  /// What a store holds, as the commands show it.
  static func contents(_ store: URL) throws -> String {
    let shown = try runProcess(
      "forager-batch", ["--store", store.path, "--json", "-"], input: "counts\ncategory list\ningredient list\nrecipe list\nlist all\n")
    return shown.stdout
  }

  @Test(arguments: cases)
  func aBadLineIsRefusedAndChangesNothing(_ bad: Case) throws {
    let store = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite")
    let setup = try runProcess(
      "forager-batch", ["--store", store.path, "-"], input: "seed defaults\nlist new Groceries\nrecipe add Soup\n")
    #expect(setup.status == 0, "\(setup.stderr)")
    let before = try Self.contents(store)
    let result = try runProcess("forager-batch", ["--store", store.path, "-"], input: bad.line + "\n")
    #expect(result.status == bad.status, "\(result.stderr)")
    #expect(result.stderr.contains("<stdin>:1"), "\(result.stderr)")
    #expect(result.stderr.contains(bad.mentions), "\(result.stderr)")
    #expect(try Self.contents(store) == before)
  }
}
