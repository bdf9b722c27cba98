public import Model

/// Which schema version first carried each kind and field, so a batch is held to what its
/// declared schema could hold: a build of schema 4 knows no stores, and a batch that
/// declares 4 and carries one is not what a schema 4 build writes (``ChangeRules``).
/// Every kind and field not named here is as old as sync (schema 2).
///
/// | Schema | Added |
/// |---|---|
/// | 4 | a weekly list's key (`listKey`) |
/// | 5 | stores (`groceryStore`), a list's `store`, a template's `onHandAmount`, a planned meal's `servings` |
/// | 6 | a recipe line's ingredient `group`, a list item's `planAmount` |
public enum SchemaHistory {
  /// The first schema version whose batches may hold records of `kind`.
  public static func firstSchema(of kind: EntityKind) -> Int {
    kind == .groceryStore ? 5 : 2
  }

  /// The first schema version whose batches may hold a register of `field` of `kind`.
  public static func firstSchema(of field: String, in kind: EntityKind) -> Int {
    switch (kind, field) {
    case (.weeklyList, "listKey"): 4
    case (.weeklyList, "store"), (.ingredientTemplate, "onHandAmount"), (.plannedMeal, "servings"): 5
    case (.recipeIngredient, "group"), (.groceryListItem, "planAmount"): 6
    default: firstSchema(of: kind)
    }
  }

  /// Why a change cannot be in a batch of `schemaVersion`, or nil: a kind or a field that
  /// arrived with a later schema. Batches of a schema later than this build's are not asked
  /// (they are held until an upgrade reads them).
  ///
  /// Every pulled change passes here: a batch of ``latestAddition`` or later (every batch
  /// this build writes) is not looked into, and an older batch's registers are not sorted
  /// to find the first late one by name.
  static func problem(in change: RecordChange, schemaVersion: Int) -> (field: String, reason: String)? {
    guard schemaVersion < latestAddition else { return nil }
    let kindSchema = firstSchema(of: change.kind)
    if kindSchema > schemaVersion {
      return (
        "kind", "is \(change.kind.rawValue), which arrived with schema \(kindSchema); a batch of schema \(schemaVersion) cannot hold it"
      )
    }
    guard let name = change.fields.keys.lazy.filter({ firstSchema(of: $0, in: change.kind) > schemaVersion }).min() else { return nil }
    return (name, "arrived with schema \(firstSchema(of: name, in: change.kind)); a batch of schema \(schemaVersion) cannot carry it")
  }

  /// The latest schema that added a kind or a field: a batch of it or later may hold any.
  static let latestAddition = 6
}
