import CommandLanguage
import Foundation
import Model
import PersistenceSQLite
import Repositories

/// export kitchen: the whole kitchen as one versioned JSON archive (Docs/IMPORT.md, "Kitchen archive").
enum ExportCommands {
  static let kitchen = CommandSpec(
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
}
