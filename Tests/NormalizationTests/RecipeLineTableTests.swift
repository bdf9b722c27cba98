import Foundation
import Normalization
import Testing

/// One row of `RecipeLineTable`.
struct TableRow: Sendable, CustomTestStringConvertible {
  let form: String
  let isLimit: Bool
  let line: String
  let quantity: Double?
  let upperBound: Double?
  let unit: String?
  let name: String
  /// nil: not checked; "": none.
  let notes: String?
  let packageSize: IngredientLine.Amount?
  let equivalent: IngredientLine.Amount?

  var testDescription: String { "\"\(line)\"" }

  init?(_ text: Substring) {
    let fields = text.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
    guard fields.count == 8 else { return nil }
    isLimit = fields[0].hasPrefix("limit:")
    form = isLimit ? String(fields[0].dropFirst("limit:".count)) : fields[0]
    line = fields[1]
    let range = Self.range(fields[2])
    quantity = range.low
    upperBound = range.high
    unit = fields[3] == "-" ? nil : fields[3]
    name = fields[4]
    notes = fields[5] == "*" ? nil : fields[5] == "-" ? "" : fields[5]
    packageSize = Self.amount(fields[6])
    equivalent = Self.amount(fields[7])
  }

  private static func number(_ text: Substring) -> Double? {
    let parts = text.split(separator: "/")
    if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]) { return numerator / denominator }
    return Double(text)
  }

  private static func range(_ text: String) -> (low: Double?, high: Double?) {
    guard text != "-" else { return (nil, nil) }
    let parts = text.split(separator: "-")
    return (number(parts[0]), parts.count > 1 ? number(parts[1]) : nil)
  }

  private static func amount(_ text: String) -> IngredientLine.Amount? {
    guard text != "-", let space = text.firstIndex(of: " "), let value = number(text[..<space]) else { return nil }
    return IngredientLine.Amount(quantity: value, unit: String(text[text.index(after: space)...]))
  }

  /// The fields of the parse that differ from the row's: empty when the line is read right.
  func mismatches() -> [String] {
    let parsed = IngredientLine.parse(line)
    var wrong: [String] = []
    if !Self.close(parsed.quantity, quantity) { wrong.append("quantity \(String(describing: parsed.quantity))") }
    if !Self.close(parsed.quantityUpperBound, upperBound) { wrong.append("upper bound \(String(describing: parsed.quantityUpperBound))") }
    if parsed.unit != unit { wrong.append("unit \(parsed.unit ?? "nil")") }
    if parsed.name != name { wrong.append("name \"\(parsed.name)\"") }
    if parsed.canonicalName != SemanticKey.canonicalIngredientName(name) { wrong.append("canonical name \"\(parsed.canonicalName)\"") }
    if let notes, (parsed.notes ?? "") != notes { wrong.append("notes \"\(parsed.notes ?? "")\"") }
    if !Self.same(parsed.packageSize, packageSize) { wrong.append("package size \(String(describing: parsed.packageSize))") }
    if !Self.same(parsed.equivalent, equivalent) { wrong.append("equivalent \(String(describing: parsed.equivalent))") }
    return wrong
  }

  private static func close(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a - b) < 1e-6
    default: false
    }
  }

  private static func same(_ a: IngredientLine.Amount?, _ b: IngredientLine.Amount?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): close(a.quantity, b.quantity) && a.unit == b.unit
    default: false
    }
  }
}

/// The recipe-line table, form by form, and the accuracy `Docs/NORMALIZATION.md` reports.
@Suite("Recipe-line table")
struct RecipeLineTableTests {
  static let rows: [TableRow] = RecipeLineTable.text.split(separator: "\n").compactMap(TableRow.init)
  static let forms: [String] = rows.reduce(into: []) { forms, row in
    if !forms.contains(row.form) { forms.append(row.form) }
  }

  static func rows(_ form: String) -> [TableRow] { rows.filter { $0.form == form && !$0.isLimit } }

  static func check(_ row: TableRow) {
    let wrong = row.mismatches()
    #expect(wrong.isEmpty, "\(row.line.debugDescription): \(wrong.joined(separator: ", "))")
  }

  @Test func tableHasAtLeast500RowsAndEveryRowReads() {
    #expect(Self.rows.count >= 500)
    #expect(Self.rows.count == RecipeLineTable.text.split(separator: "\n").count)
  }

  @Test(arguments: rows("basic")) func readsNumberUnitName(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("fraction")) func readsFractionsAndDecimals(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("multiplier")) func readsMultipliers(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("range")) func readsRanges(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("number words")) func readsNumberWords(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("package")) func readsPackageSizesAndContainers(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("two measures")) func readsTwoMeasuresOfOneAmount(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("added")) func readsAddedAmounts(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("qualifier")) func readsQualifiers(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("trailing")) func readsTrailingAndLabelledAmounts(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("part of")) func readsJuiceAndZestOfAFruit(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("alternative")) func readsAlternatives(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("real")) func readsLinesAsRecipesPrintThem(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("no amount")) func readsLinesWithoutAnAmount(_ row: TableRow) { Self.check(row) }
  @Test(arguments: rows("unsure")) func leavesTheQuantityEmptyWhenUnsure(_ row: TableRow) { Self.check(row) }

  @Test func everyFormHasItsTest() {
    #expect(
      Self.forms == [
        "basic", "fraction", "multiplier", "range", "number words", "package", "two measures", "added", "qualifier",
        "trailing", "part of", "alternative", "real", "no amount", "unsure",
      ])
  }

  /// A row marked as a limit is still misread; when a change reads it, unmark it.
  @Test(arguments: rows.filter(\.isLimit)) func documentedLimitsAreStillMisread(_ row: TableRow) {
    #expect(!row.mismatches().isEmpty, "\(row.line.debugDescription) now reads right: remove its limit: mark")
  }

  /// No parsed name holds a number standing alone (a quantity the rules missed); numbers
  /// glued to a word ("2% milk", "7up") and "00" (a flour) are parts of names.
  @Test func noNameHoldsAStrayNumber() {
    for row in Self.rows {
      let name = IngredientLine.parse(row.line).name
      let tokens = LineTokenizer.tokens(of: name).tokens
      for (index, token) in tokens.enumerated() where token.amount != nil {
        let glued = index + 1 < tokens.count && !tokens[index + 1].spaceBefore
        #expect(glued, "\(row.line.debugDescription) → name \(name.debugDescription)")
      }
    }
  }

  // MARK: - Accuracy in the docs

  /// The accuracy table, as `Docs/NORMALIZATION.md` shows it between its markers.
  static func accuracyMarkdown() -> String {
    var lines = ["| Form | Lines | Read right | Accuracy |", "|---|---:|---:|---:|"]
    var total = 0
    var right = 0
    for form in forms {
      let all = rows.filter { $0.form == form }
      let good = all.filter { $0.mismatches().isEmpty }.count
      total += all.count
      right += good
      lines.append("| \(form) | \(all.count) | \(good) | \(percent(good, all.count)) |")
    }
    lines.append("| **all** | **\(total)** | **\(right)** | **\(percent(right, total))** |")
    lines.append("")
    lines.append("Lines of the table it misreads:")
    lines.append("")
    for row in rows where !row.mismatches().isEmpty {
      lines.append("- `\(row.line)` (\(row.form)): \(row.mismatches().joined(separator: ", "))")
    }
    return lines.joined(separator: "\n")
  }

  private static func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "–" : String(format: "%.1f %%", Double(part) * 100 / Double(whole))
  }

  /// The docs show the accuracy this table gives today. When a change moves it, the test
  /// fails and prints the new block to paste between the markers.
  @Test func docsReportTheAccuracyThisTableGives() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Docs/NORMALIZATION.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let begin = "<!-- accuracy: generated by RecipeLineTableTests -->\n"
    let end = "\n<!-- accuracy: end -->"
    let block = accuracyMarkdownBlock(in: text, begin: begin, end: end)
    let expected = Self.accuracyMarkdown()
    #expect(block == expected, "Docs/NORMALIZATION.md's accuracy block is out of date; paste:\n\(expected)")
  }

  private func accuracyMarkdownBlock(in text: String, begin: String, end: String) -> String? {
    guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return nil }
    return String(text[start.upperBound..<stop.lowerBound])
  }
}
