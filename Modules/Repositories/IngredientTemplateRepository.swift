public import Foundation
public import Model
import Normalization
import Persistence

/// Ingredient templates, unique by canonical name ("Roma Tomatoes" → "roma tomato") and
/// found by any of their names: the display name, plurals, and aliases.
///
/// ```swift
/// let onion = try library.ingredients.getOrCreate("spring onion", aliases: ["scallion"])
/// try library.ingredients.find("Green Onions")  // the same template, via the alias table
/// ```
public struct IngredientTemplateRepository {
  let context: RepositoryContext

  var operations: UniqueKindOperations<IngredientTemplate> {
    var operations = UniqueKindOperations<IngredientTemplate>(
      context: context,
      key: { SemanticKey.canonicalIngredientName($0) },
      make: { meta, name, key in IngredientTemplate(meta: meta, displayName: name, canonicalName: key) },
      renamed: { template, name, key in
        var template = template
        template.displayName = name
        template.canonicalName = key
        return template
      }
    )
    operations.fallback = { key, reader in try Self.templateWithAlias(key, in: reader) }
    return operations
  }

  /// The live template listing `alias` (canonical form) among its aliases.
  static func templateWithAlias(_ alias: String, in reader: any StoreReader) throws -> IngredientTemplate? {
    try reader.entities(IngredientTemplate.self, RecordQuery(.ingredientTemplate, filters: [.hasElement("aliases", alias)], sort: []))
      .filter { $0.aliases.contains(alias) }
      .min { UUID.keeperOrder($0.id, $1.id) }
  }

  /// The template for this name (by canonical name or alias), created when missing.
  /// New templates take the given kind, category (created when missing), staple flag and
  /// aliases; for an existing template, given values are applied and aliases added.
  /// - Parameter name: the ingredient's name as written, or one of its aliases.
  /// - Parameter kind: what sort of ingredient it is.
  /// - Parameter category: the name of its grocery category, created when missing.
  /// - Parameter aliases: other names that find it.
  /// - Parameter isStaple: whether lists leave it off as a staple.
  /// - Parameter gramsPerCup: the weight of one US cup of it, so a list can add volume
  ///   and mass of it together (above 0, at most ``maximumGramsPerCup``).
  /// - Throws: ``RepositoryError`` for bad names, an alias that names another template, or
  ///   a density out of range.
  public func getOrCreate(
    _ name: String, kind: IngredientKind? = nil, category: String? = nil, aliases: [String] = [],
    isStaple: Bool? = nil, gramsPerCup: Double? = nil
  ) throws -> IngredientTemplate {
    try Self.checkDensity(gramsPerCup)
    return try operations.existingOrWrite(
      name,
      unchanged: {
        category == nil && aliases.isEmpty && (kind ?? $0.ingredientKind) == $0.ingredientKind && (isStaple ?? $0.isStaple) == $0.isStaple
          && (gramsPerCup == nil || gramsPerCup == $0.gramsPerCup)
      },
      orWrite: {
        try getOrCreate(name, kind: kind, category: category, aliases: aliases, isStaple: isStaple, gramsPerCup: gramsPerCup, in: $0)
      }
    )
  }

  /// The heaviest cup a user may give: denser than honey (≈ 340 g) and syrup, lighter
  /// than any typo of a thousand.
  public static let maximumGramsPerCup = 1_000.0

  static func checkDensity(_ gramsPerCup: Double?) throws {
    guard let gramsPerCup, !(gramsPerCup.isFinite && gramsPerCup > 0 && gramsPerCup <= maximumGramsPerCup) else { return }
    throw RepositoryError.invalidValue(
      field: "grams-per-cup", value: WeeklyListRepository.format(gramsPerCup),
      reason: "use the grams one US cup of it weighs: a number above 0 and at most \(Int(maximumGramsPerCup))")
  }

  /// - Parameter usedAt: when a recipe line used it: its usage count goes up by one and
  ///   its last use is `usedAt` (a new template is inserted with them).
  func getOrCreate(
    _ name: String, kind: IngredientKind? = nil, category: String? = nil, aliases: [String] = [],
    isStaple: Bool? = nil, gramsPerCup: Double? = nil, usedAt: Date? = nil, in writer: any StoreWriter
  ) throws -> IngredientTemplate {
    try Self.checkDensity(gramsPerCup)
    // What the caller gave, applied to a new template before its insert (one write) and to
    // an existing one after it is found (saved only when that changes it).
    let given = { (template: inout IngredientTemplate) throws in
      if let kind { template.ingredientKind = kind }
      if let isStaple { template.isStaple = isStaple }
      if let gramsPerCup { template.gramsPerCup = gramsPerCup }
      if let category {
        template.category = try CategoryRepository(context: context.bound(to: writer)).getOrCreate(category).id
      }
      for alias in aliases {
        template.aliases = try checkedAliases(adding: alias, to: template, in: writer)
      }
    }
    let use = { (template: inout IngredientTemplate) in
      guard let usedAt else { return }
      template.usageCount += 1
      template.lastUsed = usedAt
    }
    var (template, created) = try operations.getOrCreate(name, in: writer) { template in
      try given(&template)
      use(&template)
    }
    guard !created else { return template }
    // `found` is the stored state, read in this transaction.
    let found = template
    try given(&template)
    use(&template)
    if template != found { try writer.save(template, at: context.now()) }
    return template
  }

  /// The live template with this name, plural, alias or id.
  public func find(_ nameOrID: String) throws -> IngredientTemplate? { try operations.find(nameOrID) }

  /// All live templates by name.
  public func all() throws -> [IngredientTemplate] { try context.read { try operations.all(in: $0) } }

  /// The live templates in a category, by name: one indexed read of the category's
  /// templates, whatever else the store holds.
  public func all(inCategory category: UUID) throws -> [IngredientTemplate] {
    try context.read {
      try $0.entities(IngredientTemplate.self, RecordQuery(.ingredientTemplate, filters: [.references("category", category)]))
    }
  }

  /// Adds another name that resolves to the template.
  /// - Throws: ``RepositoryError/aliasCollision(alias:existingName:existingID:)``.
  public func addAlias(_ alias: String, to nameOrID: String) throws -> IngredientTemplate {
    try context.write { writer in
      var template = try operations.require(nameOrID, in: writer)
      template.aliases = try checkedAliases(adding: alias, to: template, in: writer)
      try writer.save(template, at: context.now())
      return template
    }
  }

  private func checkedAliases(adding alias: String, to template: IngredientTemplate, in reader: any StoreReader) throws -> [String] {
    let cleaned = try NameRules.clean(alias, for: .ingredientTemplate)
    let key = SemanticKey.canonicalIngredientName(cleaned)
    guard key != template.canonicalName, !template.aliases.contains(key) else { return template.aliases }
    let holder = try reader.entities(IngredientTemplate.self, key: key).first ?? Self.templateWithAlias(key, in: reader)
    if let holder, holder.id != template.id {
      throw RepositoryError.aliasCollision(alias: cleaned, existingName: holder.displayName, existingID: holder.id)
    }
    return template.aliases + [key]
  }

  /// Puts the template in a category (created when missing).
  public func setCategory(_ category: String, for nameOrID: String) throws -> IngredientTemplate {
    try context.write { writer in
      var template = try operations.require(nameOrID, in: writer)
      template.category = try CategoryRepository(context: context.bound(to: writer)).getOrCreate(category).id
      try writer.save(template, at: context.now())
      return template
    }
  }

  /// Renames a template, refusing a name another template has as name or alias.
  public func rename(_ nameOrID: String, to newName: String) throws -> IngredientTemplate {
    try context.write { try operations.rename(nameOrID, to: newName, in: $0) }
  }

  /// Deletes a template.
  /// - Throws: ``RepositoryError/inUse(_:_:usedBy:)`` while recipes use it.
  public func delete(_ nameOrID: String) throws -> IngredientTemplate {
    try context.write { try operations.delete(nameOrID, in: $0) }
  }
}
