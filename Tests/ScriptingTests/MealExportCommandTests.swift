import CommandLanguage
import Foundation
import Scripting
import SpawnSupport
import TestSupport
import Testing

/// Debian's python3 with python3-icalendar (Scripts/setup.sh installs it), the oracle the
/// calendar tests parse the export with; nil when it is missing here.
let icalendarPython: String? = {
  let python = "/usr/bin/python3"
  guard FileManager.default.isExecutableFile(atPath: python), (try? Spawn.run(python, ["-c", "import icalendar"])) != nil else {
    return nil
  }
  return python
}()

/// meal export --ics, through the command language.
@Suite struct MealExportCommandTests {
  /// A harness with three planned meals over two days.
  static func planned() throws -> Harness {
    let harness = try Harness()
    try harness.run(#"recipe add "Egg Fried Rice" --ingredient "2 eggs""#)
    try harness.run(#"recipe add "Porridge, Oats; Milk" --ingredient "1 cup oats""#)
    try harness.run(#"meal plan 2024-12-13 dinner Egg Fried Rice --servings 6 --notes "double the sauce, please""#)
    try harness.run(#"meal plan 2024-12-14 breakfast "Porridge, Oats; Milk""#)
    try harness.run(#"meal plan 2024-12-20 lunch Egg Fried Rice"#)
    return harness
  }

  static func file(_ name: String = "meals.ics") throws -> URL {
    try RecipeImportCommandTests.temporaryFolder().appendingPathComponent(name)
  }

  @Test func theExportWritesOneEventPerMealAndSaysSoInJSON() throws {
    let harness = try Self.planned()
    let url = try Self.file()
    let json = try harness.json("meal export --ics \"\(url.path)\"")
    let calendar = try #require(json["calendar"])
    #expect(calendar.string("path") == url.path)
    #expect(calendar["events"] == .int(3))
    #expect(calendar.string("from") == "2024-12-13")
    #expect(calendar.string("to") == "2024-12-20")
    #expect(calendar.string("timing") == "all-day")
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 4)
    #expect(text.contains("\r\nSUMMARY:Breakfast: Porridge\\, Oats\\; Milk\r\n"))
    #expect(text.contains("\r\nDTSTAMP:20241213T000000Z\r\n"), "DTSTAMP comes from the session clock")
  }

  @Test func aRangeExportsOnlyItsMealsAndTimedPlacesThem() throws {
    let harness = try Self.planned()
    let url = try Self.file()
    let json = try harness.json("meal export --ics \"\(url.path)\" --from 2024-12-14 --to 2024-12-31 --timed")
    #expect(json["calendar"]?["events"] == .int(2))
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains("\r\nDTSTART:20241214T080000\r\n"))
    #expect(text.contains("\r\nDTSTART:20241220T123000\r\n"))
    #expect(!text.contains("2024-12-13-dinner"))
  }

  @Test func reExportsKeepEveryUID() throws {
    let harness = try Self.planned()
    let first = try Self.file("first.ics"), second = try Self.file("second.ics")
    try harness.run("meal export --ics \"\(first.path)\"")
    try harness.run("meal plan 2024-12-13 dinner \"Porridge, Oats; Milk\"")
    try harness.run("meal export --ics \"\(second.path)\"")
    func uids(_ url: URL) throws -> [String] {
      try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
    }
    #expect(try uids(first) == uids(second))
    #expect(try uids(first).count == 3)
    #expect(try String(contentsOf: second, encoding: .utf8).contains("SUMMARY:Dinner: Porridge"))
  }

  @Test func badRangesAreRefusedAndWriteNothing() throws {
    let harness = try Self.planned()
    let url = try Self.file()
    try harness.expectFailure(
      "meal export --ics \"\(url.path)\" --from 2024-12-20 --to 2024-12-01", .failed,
      mentions: ["--from 2024-12-20 is after --to 2024-12-01"])
    try harness.expectFailure(
      "meal export --ics \"\(url.path)\" --from 2024-01-01 --to 2026-12-31", .failed, mentions: ["one export covers at most 731"])
    try harness.expectFailure("meal export --ics \"\(url.path)\" --from 2024-13-01", .usage, mentions: ["not a date"])
    try harness.expectFailure("meal export", .usage, mentions: ["--ics FILE"])
    try harness.expectFailure(
      "meal export --ics \"\(url.path)\" --from 2025-01-01", .failed,
      mentions: ["no meals are planned from 2025-01-01; nothing was written"])
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test(.enabled(if: icalendarPython != nil, "Debian's python3-icalendar is not installed (Scripts/setup.sh installs it)"))
  func pythonIcalendarReadsTheExport() throws {
    let python = try #require(icalendarPython)
    let harness = try Self.planned()
    try harness.run(#"recipe add "Crème brûlée with a very long title that goes on, and on; past the fold" --ingredient "4 eggs""#)
    try harness.run(#"meal plan 2024-12-15 snack "Crème brûlée with a very long title that goes on, and on; past the fold""#)
    var events: [[String]] = []
    for timed in [false, true] {
      let url = try Self.file(timed ? "timed.ics" : "all-day.ics")
      try harness.run("meal export --ics \"\(url.path)\"" + (timed ? " --timed" : ""))
      let script = """
        import sys, icalendar
        calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        assert calendar['VERSION'] == '2.0', calendar['VERSION']
        for event in calendar.walk('VEVENT'):
            print('|'.join([str(event['UID']), str(event['SUMMARY']), event['DTSTART'].dt.isoformat(), str(event.get('DESCRIPTION', ''))]).replace('\\n', '/'))
        """
      let output = try Spawn.run(python, ["-c", script, url.path])
      events.append(output.split(separator: "\n").map(String.init))
    }
    let title = "Crème brûlée with a very long title that goes on, and on; past the fold"
    #expect(
      events[0] == [
        "2024-12-13-dinner@meal-plan.forager|Dinner: Egg Fried Rice|2024-12-13|Egg Fried Rice/Servings: 6/Notes: double the sauce, please",
        "2024-12-14-breakfast@meal-plan.forager|Breakfast: Porridge, Oats; Milk|2024-12-14|Porridge, Oats; Milk",
        "2024-12-15-snack@meal-plan.forager|Snack: \(title)|2024-12-15|\(title)",
        "2024-12-20-lunch@meal-plan.forager|Lunch: Egg Fried Rice|2024-12-20|Egg Fried Rice",
      ])
    #expect(events[1].map { $0.split(separator: "|")[0] } == events[0].map { $0.split(separator: "|")[0] }, "the same UIDs")
    #expect(
      events[1].map { $0.split(separator: "|")[2] } == [
        "2024-12-13T19:00:00", "2024-12-14T08:00:00", "2024-12-15T16:00:00", "2024-12-20T12:30:00",
      ])
  }
}
