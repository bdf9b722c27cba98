import Foundation
import LayerCheckCore
import Testing

@Suite("Declared edges that no file imports")
struct UnusedEdgeTests {
  static let root = Fixtures.path("UnusedEdge")

  static func graph() throws -> PackageGraph {
    try PackageGraph.decode(dumpPackage: try Data(contentsOf: URL(fileURLWithPath: root + "/package.json")))
  }

  @Test func aDeclaredLocalTargetThatNoFileImportsFails() throws {
    let violations = try Runner.checkDeclaredEdges(of: try Self.graph(), root: Self.root)
    #expect(
      violations.map(\.description) == [
        "Package.swift: error: SyncHTTP depends on SyncWire, which none of its files imports; remove the dependency",
        "Package.swift: error: Seed depends on Repositories, which none of its files imports; remove the dependency",
      ])
  }

  @Test func importsInsideIfAndWithAttributesOrAccessCountAsUses() throws {
    let graph = try Self.graph()
    let sync = try #require(graph.target(named: "Sync"))
    let model = SourceFile(path: "Modules/Sync/A.swift", text: "public import Model\n")
    let persistence = SourceFile(path: "Modules/Sync/B.swift", text: "#if DEBUG\n@testable import struct Persistence.Record\n#endif\n")
    #expect(UnusedEdgeCheck().run([model, persistence], target: sync, in: graph).isEmpty)
    #expect(
      UnusedEdgeCheck().run([model], target: sync, in: graph).map(\.message) == [
        "Sync depends on Persistence, which none of its files imports; remove the dependency"
      ])
  }

  @Test func productsTestTargetsAndPluginsAreNotChecked() throws {
    let graph = try Self.graph()
    for name in ["SyncTests", "LayerCheckPlugin"] {
      let target = try #require(graph.target(named: name))
      #expect(UnusedEdgeCheck().run([], target: target, in: graph).isEmpty, "\(name)")
    }
    // forager imports Scripting; ArgumentParser is a product (no local target of that name).
    let forager = try #require(graph.target(named: "forager"))
    #expect(UnusedEdgeCheck().run([SourceFile(path: "Main.swift", text: "import Scripting\n")], target: forager, in: graph).isEmpty)
    #expect(
      UnusedEdgeCheck().run([], target: forager, in: graph).map(\.message) == [
        "forager depends on Scripting, which none of its files imports; remove the dependency"
      ])
  }

  @Test(.enabled(if: UnusedEdgeTests.layerCheckExecutable() != nil, "layer-check is not built beside the tests"))
  func theEdgesCommandFailsOnAnUnusedEdge() throws {
    let tool = try #require(Self.layerCheckExecutable())
    let process = Process()
    process.executableURL = tool
    process.arguments = ["edges", "--package", Self.root + "/package.json", "--check-imports", "--package-root", Self.root]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    // Every edge is allowed and every import declared: the unused edges alone fail it.
    #expect(text.contains("0 violation(s)\nimports: 0 violations\n"))
    #expect(text.contains("Package.swift: error: Seed depends on Repositories, which none of its files imports"))
    #expect(text.contains("declared edges: 2 that no file imports"))
  }

  /// The `layer-check` executable of this build (the test bundle's directory holds it).
  static func layerCheckExecutable() -> URL? {
    var directory = URL(fileURLWithPath: Bundle.main.bundlePath)
    for _ in 0..<4 {
      let candidate = directory.appending(path: "layer-check")
      if FileManager.default.isExecutableFile(atPath: candidate.path(percentEncoded: false)) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }
}
