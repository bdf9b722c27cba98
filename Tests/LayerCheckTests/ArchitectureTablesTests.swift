import Foundation
import LayerCheckCore
import Testing

@Suite("Docs/ARCHITECTURE.md's generated tables")
struct ArchitectureTablesTests {
  static let page = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Docs/ARCHITECTURE.md")

  @Test func thePagesTablesAreTheLayerTables() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    let problem = ArchitectureTables(table: .forager).mismatch(in: text)
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test func everyTargetOfTheTableIsListedWithWhatItHolds() {
    let markdown = ArchitectureTables(table: .forager).markdown
    for entry in LayerTable.forager.entries {
      #expect(!entry.summary.isEmpty, "\(entry.name) has no summary")
      #expect(markdown.contains("| `\(entry.name)` | "), "\(entry.name)")
    }
    #expect(markdown.contains("| `forager-server` | executable | "))
    #expect(markdown.contains("| `SyncWire` | — | — |"))
    #expect(markdown.contains("| `Model` | — | Crypto (SHA-1 of name-based ids) |"))
  }

  @Test func aPageThatDiffersOrHasNoRegionFails() throws {
    let tables = ArchitectureTables(table: .forager)
    let page = "# Page\n\n" + tables.markdown + "\n\nMore.\n"
    #expect(tables.mismatch(in: page) == nil)

    let drifted = page.replacingOccurrences(of: "| `SyncSQLite` | Sync |", with: "| `SyncSQLite` | Sync, Model |")
    #expect(drifted != page)
    let problem = try #require(tables.mismatch(in: drifted))
    #expect(problem.contains("expected | `SyncSQLite` | Sync |"))
    #expect(problem.contains("found | `SyncSQLite` | Sync, Model |"))

    let missingRow = page.replacingOccurrences(of: "| `SyncWire` | — | — |\n", with: "")
    #expect(tables.mismatch(in: missingRow) != nil)
    #expect(tables.mismatch(in: "# Page without tables\n")?.contains("has no region") == true)
  }

  @Test func writingReplacesOnlyTheRegion() throws {
    let tables = ArchitectureTables(table: .forager)
    let stale = "# Before\n\n\(ArchitectureTables.begin)\n| old |\n\(ArchitectureTables.end)\n\nAfter.\n"
    let updated = try #require(tables.updating(stale))
    #expect(updated == "# Before\n\n" + tables.markdown + "\n\nAfter.\n")
    #expect(tables.mismatch(in: updated) == nil)
    #expect(tables.updating("no markers") == nil)
  }
}
