import CommandLanguage
import Foundation
import Model
import Repositories

/// import kitchen: restores a kitchen archive, merging by semantic key (Docs/IMPORT.md, "Kitchen archive").
enum ImportCommands {
  static let kitchen = CommandSpec(
    "import kitchen",
    summary: "Restore a kitchen archive into this store, merging by semantic key; all or nothing.",
    parameters: [.word("file", help: "an archive 'export kitchen' wrote")],
    options: [.flag("dry-run", "show what would change and change nothing")],
    details: [
      "A record the store holds (same key: 'produce' is 'Produce'; an ingredient also by alias) takes the",
      "archive's values; others are created with the archive's ids. Records the archive does not name stay.",
      "Importing the same file again changes nothing. Any bad record undoes the whole import, and the",
      "error names its kind, key and field. A newer format version or another format is refused.",
    ],
    examples: ["import kitchen backup.forager.json --dry-run", "import kitchen backup.forager.json"]
  ) { invocation, session in
    let path = invocation.argument("file")
    let dryRun = invocation.flag("dry-run")
    guard FileManager.default.fileExists(atPath: path) else { throw invocation.failure("no file \(path)", argument: "file") }
    let summary: KitchenArchiveSummary
    do {
      let document = try KitchenArchive.read(path: path)
      summary = try session.library.importKitchen(document, dryRun: dryRun, progress: session.fileProgress)
    } catch let error as KitchenArchiveError {
      throw invocation.failure("\(path): \(error); nothing was imported", argument: "file")
    }
    return report(summary)
  }

  /// The table of kinds with created, updated, unchanged and removed, and the summary line.
  static func report(_ summary: KitchenArchiveSummary) -> CommandResult {
    let rows: [[JSONValue]] = EntityKind.allCases.compactMap { kind in
      guard let counts = summary.kinds[kind], counts.changed + counts.unchanged > 0 else { return nil }
      return [
        .string(KitchenArchiveDocument.arrayName(kind)), .int(counts.created), .int(counts.updated), .int(counts.unchanged),
        .int(counts.removed),
      ]
    }
    let table = Table(
      key: "kinds",
      columns: [
        Table.Column("kind"), Table.Column("created", alignRight: true), Table.Column("updated", alignRight: true),
        Table.Column("unchanged", alignRight: true), Table.Column("removed", alignRight: true),
      ],
      rows: rows, emptyText: "the archive holds no records")
    let total = summary.total
    var line = "\(total.created) created, \(total.updated) updated, \(total.unchanged) unchanged"
    if total.removed > 0 { line += ", \(total.removed) removed" }
    if summary.dryRun {
      line += " (dry run: nothing changed)"
    } else if summary.changedNothing {
      line += ": the kitchen already holds this archive; nothing changed"
    }
    return CommandResult(.table(table), .message(line), .data(key: "changed", .bool(!summary.changedNothing && !summary.dryRun)))
  }
}
