import Foundation
import Model
import RecipeExchange
import Repositories

/// `recipe export --paprika FILE`: the recipes as a Paprika archive (.paprikarecipes).
enum PaprikaExport {
  /// Writes the archive in one step (a temporary file renamed into place): a failed
  /// write leaves no partial archive.
  static func write(_ recipes: [Recipe], to path: String, invocation: Invocation, session: Session) throws -> CommandResult {
    let groups = try session.library.recipes.ingredientGroups(of: recipes)
    let items = try recipes.map { recipe in
      PaprikaWriter.Item(
        recipe, categories: try recipe.tags.compactMap { try session.library.tags.find($0.uuidString)?.displayName },
        ingredientGroups: groups[recipe.id] ?? [])
    }
    let data: Data
    do {
      data = try PaprikaWriter.archive(items)
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw invocation.failure("cannot write \(path): \(error.localizedDescription)", argument: "--paprika")
    }
    let count = "\(recipes.count) recipe\(recipes.count == 1 ? "" : "s")"
    return CommandResult(
      .message("wrote \(count) to \(path) (Paprika archive)"),
      .data(key: "export", ["path": .string(path), "format": "paprika", "recipes": .int(recipes.count), "bytes": .int(data.count)]))
  }
}
