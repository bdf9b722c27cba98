import CommandLanguage
import Foundation
import RecipeExchange
import Repositories

/// How `recipe import` reads a Paprika archive (.paprikarecipes).
enum PaprikaImport {
  static let fileExtension = "paprikarecipes"

  static func isArchive(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == fileExtension }
}

extension RecipeImportRun {
  /// Imports each recipe entry of a Paprika archive as `recipe import` imports a file:
  /// in a transaction of its own, with a row that names the archive and the entry. An
  /// entry that cannot be read is a failed row with its reason and the others still
  /// import (with `--atomic`, any failed entry undoes the whole import, as a failed file
  /// does); entries that are not recipes are warnings. An archive that cannot be read at
  /// all (not a zip, too many entries, too large once decompressed) is one failed row.
  mutating func importArchive(_ path: String) {
    let archive: PaprikaArchive
    do {
      archive = try PaprikaArchive.read(contentsOf: URL(fileURLWithPath: path), limits: archiveLimits, readLimits: reader.limits)
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? error.description : "no such file"
      rows.append(Row(file: path, recipe: nil, status: .failed, detail: reason))
      return
    }
    for (index, entry) in archive.entries.enumerated() {
      entryProgress?(index, archive.entries.count, entry.path)
      let label = "\(path) [\(entry.path)]"
      switch entry.content {
      case .ignored(let reason):
        warnings.append("\(label): \(reason)")
      case .failed(let reason):
        rows.append(Row(file: label, recipe: nil, status: .failed, detail: reason))
      case .recipe(let recipe):
        importEntry(recipe, label: label)
      }
    }
  }

  private mutating func importEntry(_ recipe: ImportedRecipe, label: String) {
    let (draft, notes) = Self.draft(recipe)
    do {
      let row = try library.transaction { library in try create(draft, from: label, in: library) }
      let dropped = recipe.notKept.map { "\($0) not kept" }
      let keeps = row.status == .imported || row.status == .merged
      rows.append(
        keeps && !dropped.isEmpty
          ? Row(file: row.file, recipe: row.recipe, status: row.status, detail: ([row.detail] + dropped).joined(separator: "; ")) : row)
      warnings += notes.map { "\(label): '\(recipe.name)': \($0)" }
    } catch {
      rows.append(Row(file: label, recipe: recipe.name, status: .failed, detail: Session.plainReason(for: error)))
    }
  }
}
