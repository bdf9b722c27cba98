import Scripting
import Testing

@testable import CommandLanguage

@Suite struct OutputTests {
  @Test func tablesAlignColumnsAndRightAlignNumbers() {
    let table = Table(
      key: "rows", columns: [Table.Column("name"), Table.Column("id", jsonOnly: true), Table.Column("n", alignRight: true)],
      rows: [["Crème fraîche", "x", 3], ["Egg", "y", 120]], emptyText: "none")
    #expect(
      Renderer().render(CommandResult(.table(table)), command: "c", json: false) == """
        NAME             N
        Crème fraîche    3
        Egg            120
        """)
  }

  @Test func wideCharactersTakeTwoColumns() {
    let table = Table(key: "r", columns: [Table.Column("a"), Table.Column("b")], rows: [["豆腐", "x"], ["tofu", "y"]], emptyText: "")
    #expect(Renderer().render(CommandResult(.table(table)), command: "c", json: false) == "A     B\n豆腐  x\ntofu  y")
  }

  @Test func anEmptyTableShowsItsEmptyText() {
    let table = Table(key: "r", columns: [Table.Column("a")], rows: [], emptyText: "no recipes")
    #expect(Renderer().render(CommandResult(.table(table)), command: "c", json: false) == "no recipes")
  }

  @Test func jsonIsOneObjectPerResultWithOrderedKeysAndEscapes() {
    let result = CommandResult(.message("said \"hi\"\n"), .fields(key: "thing", [.init("name", "Mom's"), .init("n", .double(0.5))]))
    #expect(
      Renderer().render(result, command: "x y", json: true)
        == #"{"command":"x y","ok":true,"messages":["said \"hi\"\n"],"thing":{"name":"Mom's","n":0.5}}"#)
  }

  @Test func everyCommandAcceptsJSON() throws {
    let harness = try Harness()
    let result = try harness.run("category add Produce --json")
    let text = Renderer().render(result, command: "category add", json: true)
    #expect(text.hasPrefix(#"{"command":"category add","ok":true"#))
    #expect(text.contains(#""categories":[{"id":"#))
  }

  @Test func errorsRenderAsTextOrJSON() {
    let error = ScriptError(.usage, command: "meal plan", argument: "date", reason: "'x' is not a date", line: 4)
    #expect(Renderer().render(error, json: false) == "error: meal plan: date: 'x' is not a date")
    #expect(
      Renderer().render(error, json: true)
        == #"{"command":"meal plan","ok":false,"error":{"kind":"usage","argument":"date","message":"meal plan: date: 'x' is not a date","line":4}}"#
    )
  }

  @Test func colorsAreOnlyAddedWhenAsked() {
    let error = ScriptError(.failed, reason: "x")
    #expect(Renderer(colors: true).render(error, json: false).contains("\u{1B}["))
    #expect(!Renderer(colors: false).render(error, json: false).contains("\u{1B}["))
  }
}
