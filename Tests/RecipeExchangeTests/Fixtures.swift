import Foundation
import RecipeExchange

/// The saved pages and JSON-LD files in `Tests/Fixtures/recipe-import/`, written for
/// these tests in each shape recipe sites publish.
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/recipe-import")

  static func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

  static func read(_ name: String) throws -> RecipeReader.Reading { try RecipeReader().read(data(name)) }

  /// The only recipe of a fixture.
  static func recipe(_ name: String) throws -> ImportedRecipe {
    let reading = try read(name)
    guard reading.recipes.count == 1, let recipe = reading.recipes.first else {
      throw FixtureError(message: "\(name) holds \(reading.recipes.count) recipes")
    }
    return recipe
  }

  struct FixtureError: Error { let message: String }
}
