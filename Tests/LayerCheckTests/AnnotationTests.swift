import LayerCheckCore
import Testing

@Suite("Escape hatch: // layercheck:allow <reason>")
struct AnnotationTests {
  @Test func anAnnotationWithAReasonAllowsItsOwnLineOnly() throws {
    let report = try Fixtures.checkFrontEnd("Annotations.swift")
    #expect(report.violations.map(\.position) == ["5:11", "5:46", "6:3", "7:11", "8:79", "9:11"])
    let messages = Dictionary(report.violations.map { ($0.position, $0.message) }) { first, _ in first }
    #expect(messages["5:46"] == "'// layercheck:allow' needs a reason: // layercheck:allow <why this line may do it>")
    #expect(
      messages["6:3"]
        == "'// layercheck:allow' allows nothing on this line; put it on the line of the violation or remove it"
    )
  }

  @Test func theSummaryListsEveryUseWithFileLineAndReason() throws {
    let report = try Fixtures.checkFrontEnd("Annotations.swift")
    let file = Fixtures.path("FrontEnd/Annotations.swift")
    #expect(
      report.allowances == [
        Allowance(
          path: file,
          line: 4,
          reason: "importing a legacy export, see issue 12",
          suppressed: ["Category(…)"]
        ),
        Allowance(
          path: file,
          line: 10,
          reason: "two on one line, tests",
          suppressed: ["Category(…)", "Category(…)"]
        ),
      ]
    )
    #expect(
      report.summary.contains(
        "  allowed: \(file):4: layercheck:allow importing a legacy export, see issue 12 [Category(…)]"
      )
    )
  }

  @Test func theSummaryListsAllowancesAlsoWhenThereAreNoViolations() throws {
    let file = SourceFile(
      path: "Apps/forager/Import.swift",
      text: """
        let legacy = Category(displayName: name)  // layercheck:allow one-off import of a v1 export
        """
    )
    let report = FrontEndCheck(vocabulary: try Fixtures.vocabulary()).run([file])
    #expect(report.violations.isEmpty)
    #expect(
      report.summary == [
        "layer-check: 1 file(s) checked, 0 violations, 1 line(s) allowed by annotation",
        "  allowed: Apps/forager/Import.swift:1: layercheck:allow one-off import of a v1 export [Category(…)]",
      ]
    )
  }
}
