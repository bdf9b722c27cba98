/// How a field's values are typed and stored.
public enum FieldType: Sendable, Hashable {
  /// Text.
  case text
  /// A 64-bit whole number.
  case integer
  /// A finite floating-point number.
  case real
  /// True or false.
  case bool
  /// An instant: a date and time.
  case timestamp
  /// A civil date "YYYY-MM-DD", stored as text.
  case civilDate
  /// An ISO 8601 duration ("PT20M"), stored as text.
  case duration
  /// One of a fixed set of raw values, stored as text.
  case enumeration([String])
  /// A reference to a record of another kind (the relationship's target).
  case reference(EntityKind)
  /// An ordered list of references (a to-many relationship).
  case referenceList(EntityKind)
  /// An ordered list of strings.
  case textList

  /// The kind this field points at, for relationships.
  public var referencedKind: EntityKind? {
    switch self {
    case .reference(let kind), .referenceList(let kind): kind
    default: nil
    }
  }
}

/// What happens to a relationship when the record it points at is deleted.
public enum DeleteRule: String, Sendable, Hashable {
  /// Clear the reference (or drop the id from a to-many list).
  case nullify
  /// Delete the referring record too (it cannot exist without its target).
  case cascade
  /// Refuse the delete while any live record refers to the target.
  case deny
}

/// One field of an entity kind.
///
/// An immutable class, not a struct: every record read, written, validated or synced walks
/// its kind's fields, and a class instance is handed on with one reference count where
/// the struct's copy retained each of its strings and lists (Docs/PERFORMANCE.md,
/// "Hand-written code and its measured reasons"). Equality and hashing are by value.
public final class FieldDescriptor: Sendable, Hashable {
  /// The field's name.
  public let name: String
  /// The type of its values.
  public let type: FieldType
  /// Whether the field may be null.
  public let isOptional: Bool
  /// For relationships: what deleting the target does to this field's record.
  public let deleteRule: DeleteRule
  /// Lists are ordered or searched by this field, so a backend keeps an index on it
  /// (keys and to-one relationships are indexed anyway). The names people type and
  /// complete are indexed: a prefix search of them (`RecordFilter.hasPrefix`) reads the
  /// matching names only.
  public let isIndexed: Bool
  /// People search this text or text-list field for text anywhere in it (`recipe search`),
  /// so a backend keeps a substring index of it (`RecordFilter.contains` then reads the
  /// records that may match, not every record of the kind).
  public let isSearched: Bool
  /// People find one record of this kind by this name as they remember it — "epicerie"
  /// for the list "Épicerie" — compared as a normalized name (case, accents, letter
  /// widths and spacing folded, `SemanticKey.normalizedName`), though the kind has no
  /// semantic key. A backend may keep that normalized form in an indexed lookup column of
  /// its own (`RecordFilter.hasNormalizedName` then reads the records with that name, not
  /// every record of the kind); the column is local, never synced: it is derived from the
  /// name. Text fields only.
  public let isLookedUpByName: Bool
  /// The value a required field holds when no one has written it: what a new record gets
  /// when its creator says nothing about the field (a template's kind, a list item's
  /// done flag). Sync keeps such a value as no write at all, so any real write wins over
  /// it (Docs/SYNC.md). Nil for optional fields and for fields every record must be
  /// given (names, keys, required relationships).
  public let defaultValue: FieldValue?
  /// The length and characters a text (or each text of a list) may have (``ValueRules``):
  /// a name unless the field says otherwise.
  public let textRule: ValueRules.TextRule
  /// The whole numbers an integer field may hold.
  public let integerRange: ClosedRange<Int64>
  /// The numbers a real field may hold (always finite).
  public let realRange: ClosedRange<Double>

  /// A field of a kind's schema.
  /// - Parameter name: the field's name.
  /// - Parameter type: the type of its values.
  /// - Parameter optional: whether it may be null.
  /// - Parameter onDelete: defaults to `.nullify` for optional and to-many
  ///   relationships and `.deny` for required ones.
  /// - Parameter indexed: see ``isIndexed``.
  /// - Parameter searched: see ``isSearched``.
  /// - Parameter lookedUpByName: see ``isLookedUpByName``.
  /// - Parameter defaultValue: the ``defaultValue`` of a required enumeration; required
  ///   booleans, integers and lists default to false, 0 and empty.
  /// - Parameter text: the ``textRule``; a name by default, a short code for durations.
  /// - Parameter integers: the ``integerRange``; ``ValueRules/defaultIntegerRange`` by default.
  /// - Parameter reals: the ``realRange``; ``ValueRules/defaultRealRange`` by default.
  public init(
    _ name: String, _ type: FieldType, optional: Bool = false, onDelete: DeleteRule? = nil, indexed: Bool = false,
    searched: Bool = false, lookedUpByName: Bool = false, default defaultValue: FieldValue? = nil,
    text: ValueRules.TextRule? = nil, integers: ClosedRange<Int64>? = nil, reals: ClosedRange<Double>? = nil
  ) {
    self.textRule = text ?? (type == .duration ? .code : .name)
    self.integerRange = integers ?? ValueRules.defaultIntegerRange
    self.realRange = reals ?? ValueRules.defaultRealRange
    self.name = name
    self.type = type
    self.isOptional = optional
    self.isIndexed = indexed
    self.isSearched = searched
    self.isLookedUpByName = lookedUpByName
    if optional {
      self.defaultValue = nil
    } else if let defaultValue {
      self.defaultValue = defaultValue
    } else {
      switch type {
      case .bool: self.defaultValue = .bool(false)
      case .integer: self.defaultValue = .integer(0)
      case .textList: self.defaultValue = .textList([])
      case .referenceList: self.defaultValue = .referenceList([])
      default: self.defaultValue = nil
      }
    }
    if let onDelete {
      self.deleteRule = onDelete
    } else if case .reference = type, !optional {
      self.deleteRule = .deny
    } else {
      self.deleteRule = .nullify
    }
  }

  /// Whether two descriptors describe the same field.
  public static func == (lhs: FieldDescriptor, rhs: FieldDescriptor) -> Bool {
    lhs === rhs
      || (lhs.name == rhs.name && lhs.type == rhs.type && lhs.isOptional == rhs.isOptional && lhs.deleteRule == rhs.deleteRule
        && lhs.isIndexed == rhs.isIndexed && lhs.isSearched == rhs.isSearched && lhs.isLookedUpByName == rhs.isLookedUpByName
        && lhs.defaultValue == rhs.defaultValue && lhs.textRule == rhs.textRule && lhs.integerRange == rhs.integerRange
        && lhs.realRange == rhs.realRange)
  }

  /// Hashes by the fields compared for equality that are cheapest to read.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(type)
  }
}

/// How a kind keeps its semantic identity (Docs/DESIGN.md §2).
public enum IdentityPolicy: String, Sendable, Hashable {
  /// At most one live record per semantic key; created with get-or-create and a
  /// deterministic id (Category, Tag, IngredientTemplate, Book, WeeklyList, GroceryStore).
  case getOrCreate
  /// At most one live record per slot key; planning again replaces the content (PlannedMeal).
  case onePerSlot
  /// Records sharing a key are allowed but reported; the user decides (Recipe).
  case detect
  /// Belongs to a parent record and lives and dies with it (RecipeIngredient).
  case ownedByParent
  /// No identity beyond the id (MealPlan, GroceryListItem).
  case duplicatesAllowed

  /// Whether no two live records may share a semantic key.
  public var isUnique: Bool { self == .getOrCreate || self == .onePerSlot }
}

/// The description of one entity kind that the rest of the code reads instead of
/// repeating per-kind switches: its fields, relationships, semantic key and identity policy.
///
/// An immutable class for the reason ``FieldDescriptor`` is one: ``EntityKind/schema`` is
/// read for every record on every hot path, and the struct's copy retained each of its
/// seven lists and strings. Equality and hashing are by value.
public final class EntitySchema: Sendable, Hashable {
  /// The kind described.
  public let kind: EntityKind
  /// Non-metadata fields, in display order.
  public let fields: [FieldDescriptor]
  /// The field holding the semantic key, if the kind has one.
  public let semanticKeyField: String?
  /// The field shown to people as the record's name.
  public let displayField: String
  /// How records of the kind are identified: unique by key, detected duplicates, owned by a parent, or none.
  public let identity: IdentityPolicy
  /// For ``IdentityPolicy/ownedByParent`` kinds: the reference field naming the owner.
  public let ownerField: String?
  /// The fields the semantic key is computed from (a category's display name, a book's
  /// title and author, a planned meal's date and meal type).
  public let keyInputs: [String]

  /// A schema from its parts.
  public init(
    kind: EntityKind,
    fields: [FieldDescriptor],
    semanticKeyField: String?,
    displayField: String,
    identity: IdentityPolicy,
    ownerField: String? = nil,
    keyInputs: [String]? = nil
  ) {
    self.kind = kind
    self.fields = fields
    self.semanticKeyField = semanticKeyField
    self.displayField = displayField
    self.identity = identity
    self.ownerField = ownerField
    let keyInputs = keyInputs ?? (semanticKeyField == nil ? [] : [displayField])
    self.keyInputs = keyInputs
    self.identityFields = semanticKeyField.map { keyInputs + [$0] } ?? []
    self.relationships = fields.filter { $0.type.referencedKind != nil }
  }

  /// The key and the fields it is computed from: they change together and must be
  /// merged together, or a replica could end up with one write's name and another's key.
  public let identityFields: [String]

  /// Whether two schemas describe the same kind alike.
  public static func == (lhs: EntitySchema, rhs: EntitySchema) -> Bool {
    lhs === rhs
      || (lhs.kind == rhs.kind && lhs.fields == rhs.fields && lhs.semanticKeyField == rhs.semanticKeyField
        && lhs.displayField == rhs.displayField && lhs.identity == rhs.identity && lhs.ownerField == rhs.ownerField
        && lhs.keyInputs == rhs.keyInputs)
  }

  /// Hashes by the fields compared for equality that are cheapest to read.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(fields)
  }

  /// The descriptor of a field by name.
  public func field(named name: String) -> FieldDescriptor? { position(of: name).map { fields[$0] } }

  /// The position of a field in ``fields`` by name: a scan of a kind's ten or so names,
  /// which costs less than hashing the name for a table.
  public func position(of name: String) -> Int? { fields.firstIndex { $0.name == name } }

  /// Fields that reference other records (to-one and to-many).
  public let relationships: [FieldDescriptor]

  /// Every schema, by kind. Each entity type registers its own schema here.
  public static let registry: [EntityKind: EntitySchema] = Dictionary(
    uniqueKeysWithValues: allEntityTypes.map { ($0.kind, $0.schema) }
  )

  /// The schemas in the order of ``EntityKind/allCases``, for ``EntityKind/schema``.
  static let byOrdinal: [EntitySchema] = EntityKind.allCases.map { registry[$0] ?? missing($0) }

  /// The entity types Forager knows. Adding a kind means adding its type here.
  public static let allEntityTypes: [any Entity.Type] = [
    Category.self, Tag.self, IngredientTemplate.self, Book.self, Recipe.self,
    RecipeIngredient.self, PlannedMeal.self, MealPlan.self, WeeklyList.self, GroceryListItem.self, GroceryStore.self,
  ]

  /// All fields of all kinds that point at `kind`, as (owning kind, field) pairs.
  public static func references(to kind: EntityKind) -> [(kind: EntityKind, field: FieldDescriptor)] {
    referencesByOrdinal[kind.ordinal]
  }

  /// ``references(to:)`` of every kind, in the order of ``EntityKind/allCases``: merges
  /// and repairs ask for each record they touch.
  private static let referencesByOrdinal: [[(kind: EntityKind, field: FieldDescriptor)]] = EntityKind.allCases.map { kind in
    EntityKind.allCases.flatMap { owner in
      owner.schema.relationships
        .filter { $0.type.referencedKind == kind }
        .map { (kind: owner, field: $0) }
    }
  }

  static func missing(_ kind: EntityKind) -> EntitySchema {
    EntitySchema(kind: kind, fields: [], semanticKeyField: nil, displayField: "displayName", identity: .duplicatesAllowed)
  }
}
