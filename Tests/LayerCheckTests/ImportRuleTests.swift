import Foundation
import LayerCheckCore
import Testing

@Suite("Front-end imports")
struct ImportRuleTests {
  static func check(_ text: String, as frontEnd: String = "forager") -> [LayerDiagnostic] {
    ImportCheck(table: .forager).run([SourceFile(path: "Apps/\(frontEnd)/Main.swift", text: text)], frontEnd: frontEnd)
  }

  @Test func aFrontEndThatImportsABackendFailsAtTheImport() {
    let violations = Self.check(
      """
      import Foundation
      import Scripting
      import GRDB
      @testable import PersistenceSQLite
      import struct Persistence.Record
      #if canImport(Glibc)
        import Glibc
        import SyncSQLite
      #endif
      """)
    #expect(violations.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["3:8", "4:18", "5:15", "8:10"])
    #expect(
      violations.first?.description == "Apps/forager/Main.swift:3:8: error: front end 'forager' imports 'GRDB', which it may not depend on "
        + "(allowed: Scripting, CReadline, ArgumentParser, and the system's modules); reach data through Scripting and the repositories")
  }

  @Test func anImportBothChecksFindIsReportedOnce() {
    let frontEnd = Self.check("import GRDB\n")
    let other = LayerDiagnostic(path: "Modules/Sync/A.swift", line: 1, column: 8, message: "error: 'Sync' imports 'GRDB'")
    let sources = SourceReport(filesChecked: 1, violations: frontEnd)
    #expect(Runner.importFindings(frontEnd + [other], notIn: sources) == [other])
    #expect(Runner.importFindings(frontEnd + [other], notIn: nil) == frontEnd + [other])
  }

  @Test func whatTheTableAllowsAndTheSystemsModulesPass() {
    #expect(
      Self.check("import Foundation\nimport Scripting\nimport CReadline\nimport ArgumentParser\n@preconcurrency import Glibc\n").isEmpty)
    #expect(Self.check("import Repositories\nimport Sync\nimport SyncHTTP\n", as: "Scripting").isEmpty)
    #expect(Self.check("import GRDB\n", as: "Scripting").count == 1)
  }

  @Test func theRepositorysFrontEndsImportOnlyWhatTheyMay() throws {
    let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directories = ["Scripting": "Modules/Scripting", "forager": "Apps/forager", "forager-batch": "Apps/forager-batch"]
    #expect(Set(directories.keys) == Set(LayerTable.forager.frontEnds))
    for (frontEnd, directory) in directories {
      let files = try SourceFile.readAll([root.appending(path: directory).path(percentEncoded: false)])
      #expect(!files.isEmpty)
      #expect(ImportCheck(table: .forager).run(files, frontEnd: frontEnd).isEmpty, "\(frontEnd)")
    }
  }
}

@Suite("Module imports")
struct ModuleImportTests {
  @Test func aModuleThatImportsWhatItOnlyReachesThroughAnotherFails() {
    // Seed depends on Model and Repositories; Persistence and GRDB are only reachable
    // through them, which the compiler allows and the table does not.
    let file = SourceFile(
      path: "Modules/Seed/Sample.swift", text: "public import Model\nimport Repositories\nimport Persistence\nimport GRDB\n")
    let violations = ImportCheck(table: .forager).run([file], target: "Seed")
    #expect(violations.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["3:8", "4:8"])
    #expect(
      violations.first?.description == "Modules/Seed/Sample.swift:3:8: error: target 'Seed' imports 'Persistence', which it may not "
        + "depend on (allowed: Model, Repositories, and the system's modules); declare the dependency, if the table allows it")
  }

  @Test func targetsTheTableLetsDependOnAnythingAreNotChecked() {
    let file = SourceFile(path: "Tools/Bench/Sources/Main.swift", text: "import GRDB\nimport PostgresNIO\n")
    #expect(ImportCheck(table: .forager).run([file], target: "Bench").isEmpty)
  }
}

@Suite("Front-end loopholes")
struct LoopholeTests {
  @Test func implicitSelfStoreCallsAndMetatypeConstructionsAreReported() throws {
    let report = try Fixtures.checkFrontEnd("Loopholes.swift")
    #expect(report.violations.map(\.position) == ["7:9", "14:9", "21:10", "25:3", "30:10", "35:16", "36:17", "36:22"])
    let messages = report.violations.map(\.description)
    #expect(messages[0].contains("insertRecord"))
    #expect(messages[2].contains("'T.init(…)' creates a Category"))
    #expect(messages[3].contains("'kind.init(…)' creates a Category"))
    #expect(messages[5].contains("'RecordChange(…)' builds a sync change (RecordChange) in a front end"))
    #expect(messages[6].contains("'push(…)' appends a batch to the household's log"))
    #expect(messages[7].contains("'ChangeBatch(…)' builds a sync change"))
  }

  @Test func aTopLevelFunctionOfTheSameNameIsNotAStoreCall() throws {
    let report = try Fixtures.checkFrontEnd("NearMisses.swift")
    #expect(report.violations.isEmpty, "\(report.violations)")
  }
}
