public import Model
import Normalization

/// The rule that keeps semantic identity true at the store: a record of a unique kind holds
/// the key its name gives under Normalization's rules, the same functions the repositories
/// key names with (Docs/DESIGN.md §2). A write that went around the repositories cannot plant a
/// second "Produce" under a made-up key; the store refuses it as an invalid record.
///
/// Checked by both backends on local and migration writes. Rows the view writes from
/// synced states are not checked again: the changes they come from were held to the same
/// rule (`Record.key(of:_:)`) at the server's door and on pull (Sync's `ChangeRules`),
/// where a change that breaks it is set aside rather than stopping the sync.
extension Record {
  /// The key this record's name gives, for the kinds whose key is derived from their name
  /// (category, tag, store, ingredient, book, planned meal, weekly list); nil for other kinds, or when the name
  /// fields are missing (the schema check reports that).
  public var keyOfItsName: String? { Self.key(of: kind) { self[$0] } }

  /// The key the identity fields that `value` gives make for a record of `kind` (see
  /// ``keyOfItsName``): the one rule for rows and for changes that arrive by sync, whose
  /// registers are read through `value` (a field it has no value for reads as null).
  public static func key(of kind: EntityKind, _ value: (String) -> FieldValue) -> String? {
    switch kind {
    case .category, .tag, .groceryStore:
      return value("displayName").text.map(SemanticKey.normalizedName)
    case .ingredientTemplate:
      return value("displayName").text.map { SemanticKey.canonicalIngredientName($0) }
    case .book:
      return value("title").text.map { SemanticKey.bookKey(title: $0, author: value("author").text) }
    case .weeklyList:
      guard let week = value("weekIdentifier").text, let name = value("displayName").text else { return nil }
      return SemanticKey.listKey(week: week, name: name)
    case .plannedMeal:
      guard let date = value("date").text.flatMap(CivilDate.init(iso:)), let meal = value("mealType").text else { return nil }
      return SemanticKey.slotKey(year: date.year, month: date.month, day: date.day, mealType: meal)
    default:
      return nil
    }
  }

  /// Refuses a record of a unique kind whose stored key is not the key of its name.
  /// - Throws: ``StoreError/invalidRecord(kind:id:field:reason:)`` naming the key field,
  ///   the key it holds and the key its name gives.
  public func validateSemanticKey() throws(StoreError) {
    guard kind.schema.identity.isUnique, let field = kind.schema.semanticKeyField, let expected = keyOfItsName else { return }
    let stored = semanticKey ?? ""
    guard stored != expected else { return }
    throw StoreError.invalidRecord(
      kind: kind, id: id, field: field,
      reason: "is '\(stored)', but its name gives the key '\(expected)' (keys are derived from names; write through a repository)")
  }
}

extension ChangeOrigin {
  /// Whether writes of this origin are held to `Record/validateSemanticKey()`: all but
  /// sync and the view derived from it.
  public var checksSemanticKeys: Bool { self != .sync && self != .derived }
}
