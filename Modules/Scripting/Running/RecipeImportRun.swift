import Foundation
import Model
import RecipeExchange
import Repositories

/// One `recipe import`: reads each file, turns what it gives into recipe drafts and
/// creates them through the repositories, a file at a time (a file's recipes are kept
/// together or not at all), and says what happened to each.
struct RecipeImportRun {
  enum Duplicates {
    /// Report a recipe whose title key exists, create nothing.
    case report
    /// Create it anyway.
    case createAnyway
    /// Fold it into the existing recipe: the existing one's empty fields are filled.
    case merge
  }

  /// What happened to one recipe, or to a file that gave none.
  struct Row {
    enum Status: String {
      case imported, wouldImport = "would import", similar = "similar to existing", merged, failed
    }

    let file: String
    let recipe: String?
    let status: Status
    /// Lines kept, the similar recipes, or why the file failed.
    let detail: String
  }

  let library: Library
  let reader: RecipeReader
  let duplicates: Duplicates
  var rows: [Row] = []
  var warnings: [String] = []
  /// Limits of a Paprika archive's entries and sizes.
  var archiveLimits = PaprikaArchive.Limits()
  /// Told (done, total, entry) while an archive's entries are imported, for a progress bar.
  var entryProgress: ((Int, Int, String) -> Void)?

  init(library: Library, duplicates: Duplicates) {
    self.library = library
    self.duplicates = duplicates
    reader = RecipeReader(
      limits: ReadLimits(
        shortText: RecipeLimits.shortText, description: RecipeLimits.description, ingredientLine: RecipeLimits.ingredientLine))
  }

  var failedFiles: Int { rows.count { $0.status == .failed } }

  // MARK: Files

  /// What a folder's files may end in to be read.
  static let extensions = ["html", "htm", "json", "jsonld", PaprikaImport.fileExtension]

  /// The files to read: a file as named; a folder's pages, JSON files and Paprika
  /// archives (.html, .htm, .json, .jsonld, .paprikarecipes), in name order, its
  /// subfolders included, but not hidden files and folders (`.DS_Store`, the `._NAME`
  /// resource forks macOS leaves) nor a `__MACOSX` folder. A path that does not exist is
  /// reported as a failed file.
  static func files(_ paths: [String]) -> [String] {
    let manager = FileManager.default
    return paths.flatMap { path -> [String] in
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
        let enumerator = manager.enumerator(atPath: path)
      else { return [path] }
      let names = enumerator.compactMap { $0 as? String }.filter { name in
        !name.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
          && extensions.contains((name as NSString).pathExtension.lowercased())
      }
      return names.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
  }

  /// Reads one file and creates its recipes in one transaction; a failure leaves
  /// nothing of the file behind and is reported in its row.
  mutating func importFile(_ path: String) {
    if PaprikaImport.isArchive(path) { return importArchive(path) }
    let reading: RecipeReader.Reading
    do {
      reading = try reader.read(Self.contents(path, maximum: reader.limits.maximumBytes))
    } catch {
      rows.append(Row(file: path, recipe: nil, status: .failed, detail: Interpreter.reason(for: error)))
      return
    }
    warnings += reading.warnings.map { "\(path): \($0)" }
    do {
      let (fileRows, fileWarnings) = try library.transaction { library in
        var rows: [Row] = [], warnings: [String] = []
        for recipe in reading.recipes {
          let (draft, notes) = Self.draft(recipe)
          warnings += notes.map { "\(path): '\(recipe.name)': \($0)" }
          rows.append(try create(draft, from: path, in: library))
        }
        return (rows, warnings)
      }
      rows += fileRows
      warnings += fileWarnings
    } catch {
      rows.append(Row(file: path, recipe: nil, status: .failed, detail: Interpreter.reason(for: error)))
    }
  }

  /// The file's bytes, or an error when it is missing, a folder, or larger than
  /// `maximum` (found from its size, before reading it).
  static func contents(_ path: String, maximum: Int) throws -> Data {
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw ImportFileError(reason: "no such file")
    }
    if attributes[.type] as? FileAttributeType == .typeDirectory { throw ImportFileError(reason: "a folder with no pages in it") }
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    if size > maximum { throw RecipeReadError.tooLarge(bytes: size, maximum: maximum) }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ImportFileError(reason: "cannot be read (\(error.localizedDescription))")
    }
  }

  func create(_ draft: RecipeDraft, from path: String, in library: Library) throws -> Row {
    let recipes = library.recipes
    switch try recipes.create(draft, allowSimilar: duplicates == .createAnyway) {
    case .created(let recipe):
      return Row(file: path, recipe: recipe.displayName, status: .imported, detail: Self.lines(draft.ingredients.count))
    case .similarExists(let similar):
      let names = similar.map { "'\($0.displayName)' (id \($0.id.shortText))" }.joined(separator: ", ")
      guard duplicates == .merge, let keeper = similar.first else {
        return Row(file: path, recipe: draft.name, status: .similar, detail: names)
      }
      guard case .created(let created) = try recipes.create(draft, allowSimilar: true) else {
        return Row(file: path, recipe: draft.name, status: .similar, detail: names)
      }
      let merged = try recipes.merge(created.id.uuidString, into: keeper.id.uuidString)
      return Row(file: path, recipe: draft.name, status: .merged, detail: "into '\(merged.displayName)' (id \(merged.id.shortText))")
    }
  }

  static func lines(_ count: Int) -> String { "\(count) ingredient line\(count == 1 ? "" : "s")" }

  // MARK: Drafts

  /// The draft for an imported recipe, and what was left out of it. Ingredient lines the
  /// repository would refuse (no ingredient name, an amount out of range) are left out
  /// with a warning, so one odd line never costs the whole recipe.
  static func draft(_ recipe: ImportedRecipe) -> (RecipeDraft, [String]) {
    var warnings = recipe.warnings
    var draft = RecipeDraft(name: recipe.name)
    for (number, line) in recipe.ingredients.enumerated() {
      if let problem = RecipeRepository.problem(inIngredientLine: line) {
        warnings.append("ingredient line \(number + 1) '\(line)' left out: \(problem)")
      } else {
        draft.ingredients.append(line)
        let group = number < recipe.ingredientGroups.count ? recipe.ingredientGroups[number] : nil
        do {
          draft.ingredientGroups.append(try RecipeRepository.groupName(group, line: draft.ingredients.count))
        } catch {
          warnings.append("ingredient group '\(group ?? "")' of line \(number + 1) left out: \(error.localizedDescription)")
          draft.ingredientGroups.append(nil)
        }
      }
    }
    draft.instructions = recipe.instructions
    draft.description = recipe.description
    draft.yield = recipe.yield
    draft.prepTime = recipe.prepTime
    draft.cookTime = recipe.cookTime
    draft.totalTime = recipe.totalTime
    draft.cuisine = recipe.cuisine
    draft.category = recipe.category
    draft.keywords = recipe.keywords
    draft.author = recipe.author
    draft.datePublished = recipe.datePublished
    draft.url = recipe.url
    draft.tags = recipe.tags
    draft.notes = recipe.notes
    draft.isFavorite = recipe.isFavorite
    if let image = recipe.image { warnings.append("image \(image) not kept (Forager stores no images)") }
    return (draft, warnings)
  }
}

/// A file that could not be opened for import.
struct ImportFileError: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}
