public import Model
import Persistence

extension Library {
  /// The names of the live records of `kind` that start with `prefix`, ignoring ASCII
  /// letter case — what tab completion offers.
  ///
  /// The search is a prefix query on the kind's display field, which the store indexes
  /// for the kinds people name (`FieldDescriptor/isIndexed`): it reads the names that
  /// match, not every name of the kind. Other letters must match exactly, so a caller
  /// that folds case by other rules passes the part of its text it folds the same way.
  ///
  /// ```swift
  /// try library.names(of: .recipe, startingWith: "egg")   // ["Egg Fried Rice"]
  /// ```
  public func names(of kind: EntityKind, startingWith prefix: String) throws -> [String] {
    let field = kind.schema.displayField
    return try context.read { reader in
      try reader.fetch(RecordQuery(kind, filters: [.hasPrefix(field, prefix)])).map { $0[field].displayText }
    }
  }
}
