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
  /// - Parameter name: the category's name as written.
  /// - Parameter sortOrder: the position of a new category (default: after the last
  ///   one); an existing one keeps its own.
  public func getOrCreate(_ name: String, sortOrder: Int64? = nil) throws -> Category {
    try getOrCreateReporting(name, sortOrder: sortOrder).category
  }

  /// ``getOrCreate(_:sortOrder:)``, also saying whether it created the category: what
  /// `category add` reports, without a lookup of its own before (a script of 10k adds
  /// paid for that read transaction on every line).
  public func getOrCreateReporting(_ name: String, sortOrder: Int64? = nil) throws -> (category: Category, created: Bool) {
    if let sortOrder, !(0...Self.maximumSortOrder).contains(sortOrder) {
      throw RepositoryError.invalidValue(
        field: "sort", value: String(sortOrder), reason: "use a position from 0 to \(Self.maximumSortOrder)")
    }
    var created = false
    let category = try operations().existingOrWrite(name) { writer in
      let position = try sortOrder ?? nextSortOrder(in: writer)
      let outcome = try operations(sortOrder: position).getOrCreate(name, in: writer)
      created = outcome.created
      return outcome.entity
    }
    return (category, created)
  }

  /// One past the largest sort order of the live categories: where a new one goes.
  private func nextSortOrder(in reader: any StoreReader) throws -> Int64 {
    try reader.largestInteger(.category, field: "sortOrder").map { $0 + 1 } ?? 0
  }

  /// The live category with this name (any spelling with the same key) or id.
  public func find(_ nameOrID: String) throws -> Category? { try operations().find(nameOrID) }

  /// All live categories by sort order, then name.
  public func all() throws -> [Category] {
    try context.read { try $0.entities(Category.self, RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")])) }
  }

  /// Moves a category to just before another in the aisle order (`list show` follows it).
  ///
  /// Writes only the moved category when there is room between `other` and the one
  /// before it; otherwise renumbers the order in steps of ``orderStep``.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown category,
  ///   ``RepositoryError/invalidValue(field:value:reason:)`` when both name one category.
  public func move(_ nameOrID: String, before otherNameOrID: String) throws -> [Category] {
    try context.write { writer in
      let operations = operations()
      let moved = try operations.require(nameOrID, in: writer)
      let anchor = try operations.require(otherNameOrID, in: writer)
      guard moved.id != anchor.id else {
        throw RepositoryError.invalidValue(field: "before", value: otherNameOrID, reason: "a category cannot move before itself")
      }
      var order = try sorted(in: writer).filter { $0.id != moved.id }
      let index = order.firstIndex { $0.id == anchor.id } ?? order.count
      let previous = index > 0 ? order[index - 1].sortOrder : anchor.sortOrder - 2 * Self.orderStep
      if anchor.sortOrder - previous >= 2, previous + 1 >= 0 {
        var single = moved
        single.sortOrder = previous + (anchor.sortOrder - previous) / 2
        try writer.save(single, at: context.now())
        order.insert(single, at: index)
        return order
      }
      order.insert(moved, at: index)
      return try renumber(order, in: writer)
    }
  }

  /// Sets the aisle order: the named categories first, in the order given, then every
  /// other category in its current order.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown name,
  ///   ``RepositoryError/invalidValue(field:value:reason:)`` for a name given twice.
  public func setOrder(_ namesOrIDs: [String]) throws -> [Category] {
    try context.write { writer in
      let operations = operations()
      var first: [Category] = []
      for name in namesOrIDs {
        let category = try operations.require(name, in: writer)
        if first.contains(where: { $0.id == category.id }) {
          throw RepositoryError.invalidValue(field: "order", value: name, reason: "'\(category.displayName)' is named twice")
        }
        first.append(category)
      }
      let named = Set(first.map(\.id))
      return try renumber(first + sorted(in: writer).filter { !named.contains($0.id) }, in: writer)
    }
  }

  /// The gap `move` and `setOrder` leave between neighbours, so most later moves write one record.
  public static let orderStep: Int64 = 1_000

  private func sorted(in reader: any StoreReader) throws -> [Category] {
    try reader.entities(Category.self, RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")]))
  }

  /// Positions `order` at steps of ``orderStep`` (smaller when many), writing only the
  /// categories whose position changes.
  private func renumber(_ order: [Category], in writer: any StoreWriter) throws -> [Category] {
    let step = max(1, min(Self.orderStep, Self.maximumSortOrder / Int64(max(order.count, 1))))
    let now = context.now()
    return try order.enumerated().map { index, category in
      var category = category
      let position = Int64(index) * step
      if category.sortOrder != position {
        category.sortOrder = position
        try writer.save(category, at: now)
      }
      return category
    }
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
