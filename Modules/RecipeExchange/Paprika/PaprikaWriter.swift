import Crypto
public import Foundation
public import Model
import Normalization
import ZIPFoundation

/// Writes recipes as a Paprika export (`.paprikarecipes`) that Paprika and
/// ``PaprikaArchive`` read: a zip archive with one `NAME.paprikarecipe` entry per
/// recipe, each the recipe's JSON compressed as one gzip member.
///
/// Fields written: uid (the recipe's id), name, ingredients and directions (one per line;
/// an ingredient group's or a section's heading as "NAME:"), description, servings (the yield), prep, cook and total
/// times as Paprika shows them ("1 hr 20 mins"), categories (the tags), source (the
/// author), source URL, notes, favourite, created and a content hash. Cuisine, category,
/// keywords, the book and the date published have no Paprika field and are not written
/// (Docs/IMPORT.md). The same recipes give the same bytes.
///
/// ```swift
/// let data = try PaprikaWriter.archive([.init(recipe, categories: ["Dinner"])])
/// ```
public enum PaprikaWriter {
  /// One recipe and the names of its tags (the recipe holds only their ids).
  public struct Item: Sendable {
    /// The recipe.
    public var recipe: Recipe
    /// Its tags' names, written as Paprika categories.
    public var categories: [String]
    /// The group of each ingredient line (as `RecipeIngredient.group`), written as a
    /// heading line "NAME:" before the group's first line.
    public var ingredientGroups: [String?]

    /// An item for `recipe` with these category names and its lines' groups.
    public init(_ recipe: Recipe, categories: [String] = [], ingredientGroups: [String?] = []) {
      self.recipe = recipe
      self.categories = categories
      self.ingredientGroups = ingredientGroups
    }
  }

  /// The archive's bytes.
  /// - Throws: an error from ZIPFoundation when the archive cannot be assembled.
  public static func archive(_ items: [Item]) throws -> Data {
    let archive = try Archive(accessMode: .create)
    var used = Set<String>()
    for item in items {
      let member = try Gzip.compress(json(item))
      let path = entryName(item.recipe.displayName, used: &used)
      try archive.addEntry(
        with: path, type: .file, uncompressedSize: Int64(member.count), modificationDate: item.recipe.meta.updatedAt,
        permissions: 0o644, compressionMethod: .none,
        provider: { position, size in member.subdata(in: Int(position)..<(Int(position) + size)) })
    }
    guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
    return data
  }

  /// The recipe as Paprika's JSON object.
  static func object(_ item: Item) -> [String: Any] {
    let recipe = item.recipe
    var object: [String: Any] = [
      "uid": recipe.id.uuidString, "name": recipe.displayName,
      "ingredients": IngredientHeadings.lines(recipe.recipeIngredient, groups: item.ingredientGroups).joined(separator: "\n"),
      "directions": recipe.recipeInstructions.map { StepHeadings.name(of: $0).map { $0 + ":" } ?? $0 }.joined(separator: "\n"),
      "description": recipe.recipeDescription ?? "", "notes": recipe.notes ?? "", "servings": recipe.recipeYield ?? "",
      "prep_time": spoken(recipe.prepTime), "cook_time": spoken(recipe.cookTime), "total_time": spoken(recipe.totalTime),
      "categories": item.categories, "source": recipe.author ?? "", "source_url": recipe.sourceURL ?? "",
      "on_favorites": recipe.isFavorite, "rating": 0, "difficulty": "", "nutritional_info": "", "photo": NSNull(),
      "photo_data": NSNull(), "photo_hash": NSNull(), "photo_large": NSNull(), "image_url": NSNull(), "photos": [Any](),
      "created": created(recipe.meta.createdAt),
    ]
    object["hash"] = hash(object)
    return object
  }

  static func json(_ item: Item) throws -> Data {
    try JSONSerialization.data(withJSONObject: object(item), options: [.sortedKeys, .withoutEscapingSlashes])
  }

  /// "1 hr 20 mins" for "PT1H20M", as Paprika shows times; "" for none.
  static func spoken(_ iso: String?) -> String {
    guard let iso, let seconds = Durations.seconds(iso), seconds > 0 else { return "" }
    let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) hr\(hours == 1 ? "" : "s")") }
    if minutes > 0 { parts.append("\(minutes) min\(minutes == 1 ? "" : "s")") }
    if rest > 0 { parts.append("\(rest) sec\(rest == 1 ? "" : "s")") }
    return parts.joined(separator: " ")
  }

  /// "2024-12-13 09:30:00", in UTC, as Paprika writes dates.
  static func created(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func pad(_ value: Int?, _ width: Int = 2) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day)) \(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))"
  }

  /// SHA-256 of the other fields, as hex: Paprika compares it to notice a changed recipe.
  static func hash(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return SHA256.hash(data: data).map { byte in
      String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
    .joined()
  }

  /// "Egg Fried Rice.paprikarecipe": the name without path separators or control
  /// characters, numbered when two recipes share it.
  static func entryName(_ name: String, used: inout Set<String>) -> String {
    var base = String(
      name.unicodeScalars.map { "/\\:".unicodeScalars.contains($0) || $0.properties.generalCategory == .control ? "-" : Character($0) })
    base = String(base.trimmingCharacters(in: .whitespaces).prefix(100))
    if base.isEmpty || base.hasPrefix(".") { base = "Recipe" + base }
    var candidate = base, number = 2
    while !used.insert(candidate.lowercased()).inserted {
      candidate = "\(base) \(number)"
      number += 1
    }
    return candidate + ".paprikarecipe"
  }
}
