import Foundation
public import Model
import Normalization
import Persistence

/// The shops a household buys from, unique by normalized name ("Trader Joe's" and
/// "trader joe's" are one store), each with its own aisle order.
///
/// The household's default order is the categories' own (`category move`, `category
/// order`); a store names the categories it puts first, in its order, and the others
/// follow in the default order. Two devices that add one store offline create the same
/// record (its id comes from its name).
///
/// ```swift
/// _ = try library.stores.getOrCreate("Trader Joe's")
/// _ = try library.stores.setOrder(of: "Trader Joe's", ["Produce", "Dairy"])
/// try library.stores.aisleOrder("Trader Joe's").map(\.displayName)   // ["Produce", "Dairy", …]
/// ```
public struct GroceryStoreRepository {
  let context: RepositoryContext

  var operations: UniqueKindOperations<GroceryStore> {
    UniqueKindOperations(
      context: context,
      key: SemanticKey.normalizedName,
      make: { meta, name, key in GroceryStore(meta: meta, displayName: name, normalizedName: key) },
      renamed: { store, name, key in
        var store = store
        store.displayName = name
        store.normalizedName = key
        return store
      }
    )
  }

  /// The store with this name's key, created (with its name-based id) when missing, and
  /// whether it was created. An existing store is returned unchanged.
  /// - Throws: ``RepositoryError`` for an empty, overlong or control-character name.
  public func getOrCreate(_ name: String) throws -> (store: GroceryStore, created: Bool) {
    var created = false
    let store = try operations.existingOrWrite(name) { writer in
      let outcome = try operations.getOrCreate(name, in: writer)
      created = outcome.created
      return outcome.entity
    }
    return (store, created)
  }

  /// The live store with this name (any spelling with the same key) or id.
  public func find(_ nameOrID: String) throws -> GroceryStore? { try operations.find(nameOrID) }

  func require(_ nameOrID: String, in reader: any StoreReader) throws -> GroceryStore {
    try operations.require(nameOrID, in: reader)
  }

  /// Every live store by name.
  public func all() throws -> [GroceryStore] {
    try context.read { reader in
      try reader.entities(GroceryStore.self, RecordQuery(.groceryStore, sort: [SortKey("displayName")]))
    }
  }

  /// Renames a store.
  /// - Throws: ``RepositoryError/renameCollision(_:newName:existingName:existingID:)`` when
  ///   another store already has the new name's key.
  public func rename(_ nameOrID: String, to newName: String) throws -> GroceryStore {
    try context.write { try operations.rename(nameOrID, to: newName, in: $0) }
  }

  /// Deletes a store; lists shopped there keep their items and fall back to the default order.
  public func delete(_ nameOrID: String) throws -> GroceryStore {
    try context.write { try operations.delete(nameOrID, in: $0) }
  }

  /// Sets a store's aisle order: these categories first, in this order, then every other
  /// category in the default order. No categories: the store follows the default order.
  ///
  /// The order is one field of the store, written whole: two devices that order one store
  /// differently converge on the later order.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown store or category,
  ///   ``RepositoryError/invalidValue(field:value:reason:)`` for a category named twice.
  public func setOrder(of storeNameOrID: String, _ categoryNamesOrIDs: [String]) throws -> GroceryStore {
    try context.write { writer in
      var store = try require(storeNameOrID, in: writer)
      let categories = CategoryRepository(context: context.bound(to: writer))
      var order: [UUID] = []
      for name in categoryNamesOrIDs {
        guard let category = try categories.find(name) else { throw RepositoryError.notFound(.category, name) }
        if order.contains(category.id) {
          throw RepositoryError.invalidValue(field: "order", value: name, reason: "'\(category.displayName)' is named twice")
        }
        order.append(category.id)
      }
      guard order != store.aisleOrder else { return store }
      store.aisleOrder = order
      try writer.save(store, at: context.now())
      return store
    }
  }

  /// Every live category in the store's walking order (nil: the default order).
  public func aisleOrder(_ storeNameOrID: String?) throws -> [Category] {
    try context.read { reader in
      let store = try storeNameOrID.map { try require($0, in: reader) }
      let all = try reader.entities(Category.self, RecordQuery(.category, sort: [SortKey("sortOrder"), SortKey("displayName")]))
      return Self.ordered(all, by: store)
    }
  }

  /// `categories` (in the default order) rearranged for `store`: the ones it names first,
  /// in its order, then the rest as they were.
  static func ordered(_ categories: [Category], by store: GroceryStore?) -> [Category] {
    guard let store, !store.aisleOrder.isEmpty else { return categories }
    let position = Dictionary(store.aisleOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    return categories.enumerated().sorted { left, right in
      (position[left.element.id] ?? Int.max, left.offset) < (position[right.element.id] ?? Int.max, right.offset)
    }.map(\.element)
  }
}
