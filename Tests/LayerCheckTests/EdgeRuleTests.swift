import LayerCheckCore
import Testing

@Suite("Dependency-edge rule")
struct EdgeRuleTests {
  @Test func forbiddenEdgesAreReportedWithWhatIsAllowed() throws {
    let report = EdgeCheck(table: .forager).run(try Fixtures.packageGraph("forbidden.json"))
    #expect(
      report.violations.map(\.description) == [
        "Package.swift: error: Model must not depend on GRDB (allowed: Crypto)",
        "Package.swift: error: Normalization must not depend on Model (allowed: none)",
        "Package.swift: error: Seed must not depend on Sync (allowed: Model, Repositories)",
        "Package.swift: error: forager must not depend on Repositories (allowed: Scripting, CommandLanguage, CReadline, ArgumentParser)",
      ]
    )
  }

  @Test func aTargetMissingFromTheTableIsAViolationUnlessItIsATest() throws {
    let report = EdgeCheck(table: .forager).run(try Fixtures.packageGraph("unknown.json"))
    #expect(
      report.violations.map(\.description) == [
        "Package.swift: error: target 'Extras' is not in the layering table; add it to "
          + "Tools/LayerCheck/Core/AllowedEdges.swift with the targets and products it may depend on"
      ]
    )
  }

  @Test func theRealPackageDescriptionPasses() throws {
    let graph = try Fixtures.packageGraph("forager.json")
    let report = EdgeCheck(table: .forager).run(graph)
    #expect(report.violations.map(\.description) == [])
    let forager = try #require(graph.target(named: "forager"))
    #expect(forager.dependencies.contains(.product("ArgumentParser", package: "swift-argument-parser")))
    #expect(report.summary.hasSuffix("0 violation(s)"))
  }

  @Test func toolsAndTestSupportAreListedExplicitly() {
    let graph = PackageGraph(
      targets: [
        .init(
          name: "Bench",
          type: "executable",
          dependencies: [.byName("PersistenceSQLite"), .product("Benchmark", package: "benchmark")]
        ),
        .init(name: "TestSupport", dependencies: [.byName("Sync"), .byName("Scripting")]),
        .init(
          name: "LayerCheckCore",
          dependencies: [.product("SwiftSyntax", package: "swift-syntax"), .byName("Model")]
        ),
      ]
    )
    #expect(
      EdgeCheck(table: .forager).run(graph).violations.map(\.message) == [
        "LayerCheckCore must not depend on Model (allowed: GeneratedRegion, SwiftSyntax, SwiftParser)"
      ]
    )
  }

  @Test func theFrontEndsAreTheCommandModulesTheAppsAndTheExample() {
    #expect(
      LayerTable.forager.frontEnds == ["CommandLanguage", "Scripting", "forager", "forager-batch", "forager-example-live-list"])
  }

  @Test func theCommandLanguageMayDependOnNoKitchenModule() {
    let entry = LayerTable.forager.entry(named: "CommandLanguage")
    #expect(entry?.targets == [] && entry?.products == [])
    let graph = PackageGraph(targets: [.init(name: "CommandLanguage", dependencies: [.byName("Model"), .byName("Repositories")])])
    #expect(
      EdgeCheck(table: .forager).run(graph).violations.map(\.message) == [
        "CommandLanguage must not depend on Model (allowed: none)", "CommandLanguage must not depend on Repositories (allowed: none)",
      ])
    let file = SourceFile(path: "Modules/CommandLanguage/Language/Parser.swift", text: "import Foundation\nimport Sync\n")
    #expect(ImportCheck(table: .forager).run([file], frontEnd: "CommandLanguage").map(\.position) == ["2:8"])
  }
}
