import Foundation
public import Model
import Persistence

extension WeeklyListRepository {
  /// Sets the store a list is shopped at (its aisle order is then the list's), or clears
  /// it with nil. The list's store is a field of the list and syncs like one.
  /// - Throws: ``RepositoryError/notFound(_:_:)`` for an unknown list or store.
  public func setStore(of listNameOrID: String, to storeNameOrID: String?) throws -> (list: WeeklyList, store: GroceryStore?) {
    try context.write { writer in
      var list = Self.keyed(try require(listNameOrID, in: writer))
      let store = try storeNameOrID.map { try GroceryStoreRepository(context: context).require($0, in: writer) }
      guard list.store != store?.id else { return (list, store) }
      list.store = store?.id
      try writer.save(list, at: context.now())
      return (list, store)
    }
  }
}
