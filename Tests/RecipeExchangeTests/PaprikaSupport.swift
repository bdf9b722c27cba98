import Foundation
import ZIPFoundation

@testable import RecipeExchange

/// Paprika archives built in the test: ZIPFoundation writes the zip, Gzip the members.
enum PaprikaSupport {
  /// A zip of the given entries' bytes, as they are (already gzip members, or not).
  static func zip(_ entries: [(path: String, data: Data)], compression: CompressionMethod = .none) throws -> Data {
    let archive = try Archive(accessMode: .create)
    for (path, data) in entries {
      try archive.addEntry(
        with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: Date(timeIntervalSince1970: 0),
        compressionMethod: compression,
        provider: { position, size in data.subdata(in: Int(position)..<(Int(position) + size)) })
    }
    guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
    return data
  }

  /// An archive of Paprika recipe objects, one gzip member each.
  static func archive(_ recipes: [[String: Any]]) throws -> Data {
    try zip(recipes.enumerated().map { index, object in ("Recipe \(index).paprikarecipe", try Gzip.compress(json(object))) })
  }

  static func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

  /// A recipe as Paprika 3 exports it.
  nonisolated(unsafe) static let shakshuka: [String: Any] = [
    "uid": "6D0C3E7C-1E59-4D5E-8B8A-6A2E0C7E5F10", "name": "Weeknight Shakshuka",
    "ingredients": "2 tbsp olive oil\n1 onion, diced\n\n6 eggs\n",
    "directions": "Warm the oil.\nSoften the onion.\nFor the eggs:\nCrack in the eggs.",
    "description": "Eggs in spiced tomato.", "servings": "4 servings", "prep_time": "10 mins", "cook_time": "1 hr 20 mins",
    "total_time": "1h30", "categories": ["Breakfast", "Vegetarian"], "source": "Small Kitchen",
    "source_url": "https://small-kitchen.example/shakshuka", "notes": "Use ripe tomatoes.", "nutritional_info": "210 kcal",
    "rating": 4, "difficulty": "Easy", "photo_data": "/9j/4AAQSkZJRgABAQ==", "photo": "shakshuka.jpg", "on_favorites": true,
    "created": "2024-03-05 09:30:00", "hash": "abc", "photo_hash": NSNull(), "image_url": NSNull(),
  ]
}
