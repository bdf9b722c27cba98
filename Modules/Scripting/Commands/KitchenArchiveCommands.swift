import CommandLanguage
import Foundation
import Model
import PersistenceSQLite
import Repositories

/// export kitchen and import kitchen: the whole kitchen as one versioned JSON archive
/// (Docs/IMPORT.md, "Kitchen archive").
enum KitchenArchiveCommands {
  static let group = CommandGroup("kitchen archive", summary: "Back up and restore the whole kitchen", commands: [export, importFile])

  static let export = CommandSpec(
    "export kitchen",
    summary: "Write every category, ingredient, recipe, book, tag, store, meal plan and list to one JSON archive.",
    parameters: [.word("file", help: "the archive to write (replaced when it exists)")],
    details: [
      "Records are sorted by semantic key, with their ids and relationships by id and key: the same",
      "kitchen gives the same file (but for exportedAt). Sync state and deleted records are not written.",
    ],
    examples: ["export kitchen backup.forager.json"]
  ) { invocation, session in
    let path = invocation.argument("file")
    let document = try session.library.exportKitchen(schemaVersion: SQLiteStore.schemaVersion, progress: session.fileProgress)
    do {
      try KitchenArchive.encode(document).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw invocation.failure("cannot write \(path): \(error.localizedDescription)", argument: "file")
    }
    let counts = EntityKind.allCases.map { JSONValue.Member(KitchenArchiveDocument.arrayName($0), .int(document.records[$0]?.count ?? 0)) }
    let total = document.recordCount
    return CommandResult(
      .message("wrote \(total) record\(total == 1 ? "" : "s") to \(path)"),
      .data(key: "records", .object(counts)), .data(key: "file", .string(path)))
  }

  static let importFile = CommandSpec(
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
