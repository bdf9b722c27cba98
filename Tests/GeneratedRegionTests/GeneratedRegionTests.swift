import Foundation
import GeneratedRegion
import Testing

/// A generated region is found between its markers, compared line by line with what the
/// code makes, and rewritten without touching the page around it.
@Suite struct GeneratedRegionTests {
  let region = GeneratedRegion(
    begin: "<!-- table: begin -->", end: "<!-- table: end -->", name: "the table", command: "make-table --write PAGE")
  var table: String { region.begin + "\n| a | 1 |\n| b | 2 |\n" + region.end }

  @Test func aPageHoldingTheTableMatches() {
    let page = "# Page\n\n" + table + "\n\nProse.\n"
    #expect(region.text(in: page) == table)
    #expect(region.mismatch(in: page, expected: table) == nil)
  }

  @Test func aPageWithoutBothMarkersHasNoRegion() {
    for page in ["# No table\n", "# Half\n\n\(region.begin)\n| a | 1 |\n", "\(region.end)\n\(region.begin)\n"] {
      #expect(region.range(in: page) == nil)
      #expect(
        region.mismatch(in: page, expected: table) == "the page has no region between '<!-- table: begin -->' and '<!-- table: end -->'")
      #expect(region.replacing(in: page, with: table) == nil)
    }
  }

  @Test func aDriftedLineIsNamedWithWhatWasExpectedAndFound() {
    let drifted = "# Page\n\n" + table.replacingOccurrences(of: "| b | 2 |", with: "| b | 3 |") + "\n"
    #expect(
      region.mismatch(in: drifted, expected: table)
        == "line 3 of the table differs: expected | b | 2 |, found | b | 3 |; run `make-table --write PAGE`")
  }

  @Test func aRegionWithALineMoreOrLessIsNamedWhereItDiffers() {
    let short = region.begin + "\n| a | 1 |\n" + region.end
    #expect(
      region.mismatch(in: short, expected: table)
        == "line 3 of the table differs: expected | b | 2 |, found <!-- table: end -->; run `make-table --write PAGE`")
    let longer = region.begin + "\n| a | 1 |\n| b | 2 |\n| c | 3 |\n" + region.end
    #expect(
      region.mismatch(in: longer, expected: table)
        == "line 4 of the table differs: expected <!-- table: end -->, found | c | 3 |; run `make-table --write PAGE`")
  }

  @Test func rewritingReplacesOnlyTheRegion() {
    let stale = "# Before\n\n\(region.begin)\n| old |\n\(region.end)\n\nAfter, \(region.end) again.\n"
    let updated = region.replacing(in: stale, with: table)
    #expect(updated == "# Before\n\n" + table + "\n\nAfter, \(region.end) again.\n")
    #expect(updated.map { region.mismatch(in: $0, expected: table) } == .some(nil))
  }
}
