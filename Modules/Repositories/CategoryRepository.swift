public import Model
import Normalization
import Persistence

/// Grocery categories, unique by normalized name: "Produce", "produce" and " PRODUCE "
/// are one category.
///
/// ```swift
/// let produce = try library.categories.getOrCreate("Produce")
/// ```
public struct CategoryRepository {
  let context: RepositoryContext

  /// The largest sort position a user may give.
  public static let maximumSortOrder: Int64 = 1_000_000

  private func operations(sortOrder: Int64 = 0) -> UniqueKindOperations<Category> {
    UniqueKindOperations(
      context: context,
      key: SemanticKey.normalizedName,
      make: { meta, name, key in Category(meta: meta, displayName: name, normalizedName: key, sortOrder: sortOrder) },
      renamed: { category, name, key in
        var category = category
        category.displayName = name
        category.normalizedName = key
        return category
      }
    )
  }

  /// The category with this name's key, created (with its name-based id) when missing.
  /// - Throws: ``RepositoryError`` for an empty or overlong name.
  /// - Parameter sortOrder: the position of a new category (default: after the last
  ///   one); an existing one keeps its own.
  public func getOrCreate(_ name: String, sortOrder: Int64? = nil) throws -> Category {
    if let sortOrder, !(0...Self.maximumSortOrder).contains(sortOrder) {
      throw RepositoryError.invalidValue(field: "sort", value: String(sortOrder), reason: "use a position from 0 to \(Self.maximumSortOrder)")
    }
    return try operations().existingOrWrite(name) { writer in
      let position = try sortOrder ?? nextSortOrder(in: writer)
      return try operations(sortOrder: position).getOrCreate(name, in: writer).entity
    }
  }

  /// One past the largest sort order of the live categories: where a new one goes.
  private func nextSortOrder(in reader: any StoreReader) throws -> Int64 {
    let last = try reader.entities(Category.self, RecordQuery(.category, sort: [SortKey("sortOrder", ascending: false)], limit: 1))
    return last.first.map { $0.sortOrder + 1 } ?? 0
  }

  /// The live category with this name (any spelling with the same key) or id.
  public func find(_ nameOrID: String) throws -> Category? { try operations().find(nameOrID) }

  /// All live categories by sort order, then name.
  public func all() throws -> [Category] {
    try context.read { try $0.entities(Category.self, RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")])) }
  }

  /// Renames a category.
  /// - Throws: ``RepositoryError/renameCollision(_:newName:existingName:existingID:)`` when
  ///   another category already has the new name's key.
  public func rename(_ nameOrID: String, to newName: String) throws -> Category {
    try context.write { try operations().rename(nameOrID, to: newName, in: $0) }
  }

  /// Deletes a category; ingredients in it are left without a category.
  public func delete(_ nameOrID: String) throws -> Category {
    try context.write { try operations().delete(nameOrID, in: $0) }
  }
}
