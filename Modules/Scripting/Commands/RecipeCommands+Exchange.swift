import CommandLanguage
import Foundation
import Model
import RecipeExchange
import Repositories

/// recipe import and recipe export: schema.org Recipe JSON-LD in and out (Docs/IMPORT.md).
enum RecipeExchangeCommands {
  static let importFiles = CommandSpec(
    "recipe import",
    summary: "Import recipes from saved web pages, JSON-LD files and Paprika archives, or every such file in a folder.",
    parameters: [
      .words(
        "path", help: "a saved page (.html), a JSON-LD file (.json, .jsonld), a Paprika archive (.paprikarecipes) or a folder of them")
    ],
    options: [
      .flag("anyway", "import a recipe even when one with a similar title exists"),
      .flag("merge", "fold a recipe whose title exists into the existing one (its empty fields are filled)"),
      .flag("atomic", "keep everything or nothing: when any file fails, nothing is imported"),
      .flag("dry-run", "show what would be imported and change nothing"),
    ],
    oneOf: [OneOf("--anyway", "--merge")],
    details: [
      "A page's recipes are read from its JSON-LD, else from its microdata or RDFa.",
      "Each file's recipes are imported together or not at all; a bad file (not a page, no Recipe,",
      "broken JSON, over 10 MB, binary) is reported with its reason and never stops the others.",
      "A recipe whose title key exists is reported and not imported, as with 'recipe add'.",
      "What could not be kept (an image, a group heading, a time that is not a duration) is a warning.",
      "A Paprika archive's recipes are imported one by one, each entry like a file: a damaged entry is a failed row",
      "and the others import. Its categories become tags; a photo, rating or difficulty is named 'not kept' in the detail.",
      "When no file imports (every file failed, or the folder holds none) the command fails, after its table.",
    ],
    examples: [
      "recipe import saved/shakshuka.html",
      "recipe import ~/Downloads/recipes --dry-run",
      "recipe import a.html b.jsonld --atomic",
      "recipe import ~/Downloads/Export.paprikarecipes --dry-run",
    ]
  ) { invocation, session in
    let merge = invocation.flag("merge"), anyway = invocation.flag("anyway")
    let atomic = invocation.flag("atomic"), dryRun = invocation.flag("dry-run")
    let files = RecipeImportRun.files(invocation.argumentList("path"))
    let duplicates: RecipeImportRun.Duplicates = merge ? .merge : anyway ? .createAnyway : .report

    func importAll(into library: Library) -> RecipeImportRun {
      var run = RecipeImportRun(library: library, duplicates: duplicates)
      run.entryProgress = session.fileProgress
      for (index, file) in files.enumerated() {
        session.fileProgress?(index, files.count, file)
        run.importFile(file)
      }
      session.fileProgress?(files.count, files.count, "")
      return run
    }

    guard atomic || dryRun else {
      return try checked(importAll(into: session.library), files: files, dryRun: false, invocation: invocation)
    }
    // One transaction for every file, undone by throwing: always for a dry run, and for
    // an atomic import when a file failed.
    var finished: RecipeImportRun?
    do {
      try session.library.transaction { library in
        let run = importAll(into: library)
        finished = run
        if dryRun || run.failedFiles > 0 { throw RolledBack() }
      }
    } catch is RolledBack {
    }
    guard let run = finished else { return .empty }
    if !dryRun && run.failedFiles > 0 {
      let reasons = run.rows.filter { $0.status == .failed }.map { "\($0.file): \($0.detail)" }.joined(separator: "; ")
      throw invocation.failure(
        "nothing was imported (--atomic): \(reasons)", result: report(run, files: files.count, dryRun: false, rolledBack: true))
    }
    return try checked(run, files: files, dryRun: dryRun, invocation: invocation)
  }

  /// The run's report, or — when no file gave a recipe (every file failed, or there
  /// were none) — a failure that carries it, so a script or shell sees a non-zero exit.
  private static func checked(
    _ run: RecipeImportRun, files: [String], dryRun: Bool, invocation: Invocation
  ) throws(ScriptError) -> CommandResult {
    let result = report(run, files: files.count, dryRun: dryRun)
    guard run.rows.allSatisfy({ $0.status == .failed }) else { return result }
    let paths = invocation.argumentList("path").joined(separator: ", ")
    let verb = dryRun ? "would be" : "was"
    let reason =
      if files.isEmpty {
        "no file to import: \(paths) holds no .html, .htm, .json, .jsonld or .paprikarecipes files"
      } else if files.count == 1, let row = run.rows.first {
        "no file \(verb) imported: \(row.file): \(row.detail)"
      } else {
        "no file \(verb) imported: all \(files.count) files failed"
      }
    throw invocation.failure(reason, result: result)
  }

  /// Thrown to undo a dry run's or a failed atomic import's transaction.
  private struct RolledBack: Error {}

  /// The table of files and recipes, the warnings, and the summary line. `rolledBack`:
  /// an atomic import that failed, so nothing was imported whatever the rows say.
  private static func report(_ run: RecipeImportRun, files: Int, dryRun: Bool, rolledBack: Bool = false) -> CommandResult {
    let rows: [[JSONValue]] = run.rows.map { row in
      let status = dryRun && row.status == .imported ? RecipeImportRun.Row.Status.wouldImport : row.status
      return [.string(row.file), .text(row.recipe), .string(status.rawValue), .string(row.detail)]
    }
    let table = Table(
      key: "files", columns: [Table.Column("file"), Table.Column("recipe"), Table.Column("result"), Table.Column("detail")],
      rows: rows, emptyText: "no files to import")
    let imported = rolledBack ? 0 : run.rows.count { $0.status == .imported }, similar = run.rows.count { $0.status == .similar }
    let merged = rolledBack ? 0 : run.rows.count { $0.status == .merged }
    var summary = [
      "\(files) file\(files == 1 ? "" : "s")", "\(imported) recipe\(imported == 1 ? "" : "s") \(dryRun ? "would be imported" : "imported")",
    ]
    if merged > 0 { summary.append("\(merged) merged") }
    if similar > 0 { summary.append("\(similar) similar to existing (not imported; --anyway or --merge)") }
    summary.append("\(run.failedFiles) failed")
    let readFiles = Set(run.rows.filter { $0.status != .failed }.map(\.file)).count
    var ending = dryRun ? " (dry run: nothing changed)" : ""
    if rolledBack {
      ending = " (--atomic: nothing was imported)"
    } else if readFiles == 0 {
      ending += files == 0 ? ": no file to import" : ": no file \(dryRun ? "would be" : "was") imported"
    }
    var parts: [CommandResult.Part] = [.table(table)]
    parts += run.warnings.map { .message("warning: \($0)") }
    parts.append(.message(summary.joined(separator: ", ") + ending))
    return CommandResult(parts: parts)
  }

  static let export = CommandSpec(
    "recipe export",
    summary: "Write recipes as schema.org Recipe JSON-LD, to the screen or a file.",
    parameters: [
      .words("name", .name, optional: true, completion: .names(.recipe), help: "recipe titles or ids (quote a title with spaces)")
    ],
    options: [
      .flag("all", "every recipe"),
      .value("format", "the format: jsonld (schema.org Recipe)", .choice(["jsonld"])),
      .value("output", "write to this file instead of the screen", placeholder: "FILE"),
      .value("paprika", "write a Paprika archive (.paprikarecipes) to this file", placeholder: "FILE"),
    ],
    oneOf: [OneOf("name", "--all", required: true), OneOf("--paprika", "--output"), OneOf("--paprika", "--format")],
    details: [
      "One recipe is written as one JSON-LD object, several as an array. 'recipe import' reads it back.",
      "Tags, notes, the book and favourites have no schema.org Recipe field and are not written.",
      "With --json the document is the value of \"document\", not a message.",
      "--paprika writes an archive Paprika imports: tags become its categories; cuisine, category, keywords,",
      "the book and the date published have no Paprika field and are not written.",
    ],
    examples: [
      "recipe export \"Egg Fried Rice\"", "recipe export --all --output recipes.jsonld",
      "recipe export --all --paprika kitchen.paprikarecipes",
    ]
  ) { invocation, session in
    let names = invocation.argumentList("name")
    let recipes =
      invocation.flag("all")
      ? try session.library.recipes.all()
      : try names.map { name in
        guard let recipe = try session.library.recipes.find(name) else { throw RepositoryError.notFound(.recipe, name) }
        return recipe
      }
    if recipes.isEmpty { throw invocation.failure("there are no recipes to export", argument: "--all") }
    if let path = invocation.option("paprika") {
      return try PaprikaExport.write(recipes, to: path, invocation: invocation, session: session)
    }
    let groups = try session.library.recipes.ingredientGroups(of: recipes)
    let data = try JSONLDWriter.data(recipes, ingredientGroups: groups)
    guard let path = invocation.option("output") else {
      let objects = recipes.map { JSONValue(foundation: JSONLDWriter.object($0, ingredientGroups: groups[$0.id] ?? [])) }
      let document = objects.count == 1 ? objects[0] : .array(objects)
      return CommandResult(.document(key: "document", text: String(decoding: data, as: UTF8.self), document))
    }
    do {
      try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw invocation.failure("cannot write \(path): \(error.localizedDescription)", argument: "--output")
    }
    return CommandResult(.message("wrote \(recipes.count) recipe\(recipes.count == 1 ? "" : "s") to \(path)"))
  }
}
