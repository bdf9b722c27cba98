public import Foundation

/// A recipe, with fields named after schema.org/Recipe. Recipes sharing a title key are
/// kept and reported as possible duplicates; the user decides.
public struct Recipe: Entity {
  /// The record's id, dates, owner and sharing scope.
  public var meta: RecordMetadata
  /// The name as the user wrote it.
  public var displayName: String
  /// Semantic key (detect only): `SemanticKey.titleKey(displayName)`.
  public var titleKey: String
  /// A short description.
  public var recipeDescription: String?
  /// The ingredient lines as written ("2 ½ cups diced tomatoes").
  public var recipeIngredient: [String]
  /// Canonical ingredient names of `recipeIngredient`, in order.
  public var normalizedIngredients: [String]
  /// The steps, in order.
  public var recipeInstructions: [String]
  /// The recipe's category ("Dessert").
  public var recipeCategory: String?
  /// The cuisine ("Italian").
  public var recipeCuisine: String?
  /// What it makes ("4 servings").
  public var recipeYield: String?
  /// ISO 8601 durations ("PT20M").
  public var prepTime: String?
  /// The cooking time, as an ISO 8601 duration.
  public var cookTime: String?
  /// The total time, as an ISO 8601 duration.
  public var totalTime: String?
  /// Search keywords.
  public var keywords: [String]
  /// The recipe's author.
  public var author: String?
  /// A civil date "YYYY-MM-DD".
  public var datePublished: String?
  /// Where the recipe comes from: typed in, a book, the web, an import.
  public var sourceType: SourceType
  /// The web address it comes from.
  public var sourceURL: String?
  /// The page in its book.
  public var sourcePageNumber: Int64?
  /// The id of the book it is in.
  public var book: UUID?
  /// The ids of its tags.
  public var tags: [UUID]
  /// The cook's notes.
  public var notes: String?
  /// Whether it is a favorite.
  public var isFavorite: Bool
  /// How many times it has been planned or added to a list.
  public var usageCount: Int64
  /// When it was last used.
  public var lastUsed: Date?

  /// A recipe from its fields; apps create recipes through `Library`, which sets their ids.
  public init(
    meta: RecordMetadata, displayName: String, titleKey: String, recipeDescription: String? = nil,
    recipeIngredient: [String] = [], normalizedIngredients: [String] = [], recipeInstructions: [String] = [],
    recipeCategory: String? = nil, recipeCuisine: String? = nil, recipeYield: String? = nil,
    prepTime: String? = nil, cookTime: String? = nil, totalTime: String? = nil, keywords: [String] = [],
    author: String? = nil, datePublished: String? = nil, sourceType: SourceType = .manual,
    sourceURL: String? = nil, sourcePageNumber: Int64? = nil, book: UUID? = nil, tags: [UUID] = [],
    notes: String? = nil, isFavorite: Bool = false, usageCount: Int64 = 0, lastUsed: Date? = nil
  ) {
    self.meta = meta
    self.displayName = displayName
    self.titleKey = titleKey
    self.recipeDescription = recipeDescription
    self.recipeIngredient = recipeIngredient
    self.normalizedIngredients = normalizedIngredients
    self.recipeInstructions = recipeInstructions
    self.recipeCategory = recipeCategory
    self.recipeCuisine = recipeCuisine
    self.recipeYield = recipeYield
    self.prepTime = prepTime
    self.cookTime = cookTime
    self.totalTime = totalTime
    self.keywords = keywords
    self.author = author
    self.datePublished = datePublished
    self.sourceType = sourceType
    self.sourceURL = sourceURL
    self.sourcePageNumber = sourcePageNumber
    self.book = book
    self.tags = tags
    self.notes = notes
    self.isFavorite = isFavorite
    self.usageCount = usageCount
    self.lastUsed = lastUsed
  }

  /// The recipe kind's schema: its fields, semantic key and display field.
  public static let schema = EntitySchema(
    kind: .recipe,
    fields: [
      FieldDescriptor("displayName", .text, indexed: true, searched: true),
      FieldDescriptor("titleKey", .text, searched: true, text: .key),
      FieldDescriptor("recipeDescription", .text, optional: true, text: .paragraphs),
      FieldDescriptor("recipeIngredient", .textList, searched: true, text: .line),
      FieldDescriptor("normalizedIngredients", .textList, searched: true, text: .key),
      FieldDescriptor("recipeInstructions", .textList, text: .paragraphs),
      FieldDescriptor("recipeCategory", .text, optional: true),
      FieldDescriptor("recipeCuisine", .text, optional: true),
      FieldDescriptor("recipeYield", .text, optional: true),
      FieldDescriptor("prepTime", .duration, optional: true),
      FieldDescriptor("cookTime", .duration, optional: true),
      FieldDescriptor("totalTime", .duration, optional: true),
      FieldDescriptor("keywords", .textList, searched: true),
      FieldDescriptor("author", .text, optional: true),
      FieldDescriptor("datePublished", .civilDate, optional: true),
      FieldDescriptor("sourceType", .enumeration(SourceType.allCases.map(\.rawValue)), default: .text(SourceType.manual.rawValue)),
      FieldDescriptor("sourceURL", .text, optional: true, text: .line),
      FieldDescriptor("sourcePageNumber", .integer, optional: true, integers: 0...1_000_000),
      FieldDescriptor("book", .reference(.book), optional: true),
      FieldDescriptor("tags", .referenceList(.tag)),
      FieldDescriptor("notes", .text, optional: true, text: .paragraphs),
      FieldDescriptor("isFavorite", .bool),
      FieldDescriptor("usageCount", .integer),
      FieldDescriptor("lastUsed", .timestamp, optional: true),
    ],
    semanticKeyField: "titleKey",
    displayField: "displayName",
    identity: .detect
  )

  /// Reads a recipe from a record; throws when a field is missing or has the wrong type.
  public init(record: Record) throws(ModelError) {
    var reader = try FieldReader(record, expecting: .recipe)
    let page: Int64? = record["sourcePageNumber"].isNull ? nil : try reader.integer("sourcePageNumber")
    self.init(
      meta: record.meta,
      displayName: try reader.text("displayName"),
      titleKey: try reader.text("titleKey"),
      recipeDescription: try reader.optionalText("recipeDescription"),
      recipeIngredient: try reader.textList("recipeIngredient"),
      normalizedIngredients: try reader.textList("normalizedIngredients"),
      recipeInstructions: try reader.textList("recipeInstructions"),
      recipeCategory: try reader.optionalText("recipeCategory"),
      recipeCuisine: try reader.optionalText("recipeCuisine"),
      recipeYield: try reader.optionalText("recipeYield"),
      prepTime: try reader.optionalText("prepTime"),
      cookTime: try reader.optionalText("cookTime"),
      totalTime: try reader.optionalText("totalTime"),
      keywords: try reader.textList("keywords"),
      author: try reader.optionalText("author"),
      datePublished: try reader.optionalText("datePublished"),
      sourceType: try reader.optionalEnumeration("sourceType", as: SourceType.self) ?? .manual,
      sourceURL: try reader.optionalText("sourceURL"),
      sourcePageNumber: page,
      book: try reader.optionalReference("book"),
      tags: try reader.references("tags"),
      notes: try reader.optionalText("notes"),
      isFavorite: try reader.bool("isFavorite"),
      usageCount: try reader.integer("usageCount"),
      lastUsed: try reader.optionalTimestamp("lastUsed")
    )
  }

  /// The recipe's schema fields as values, for writing its record.
  public var fieldValues: [String: FieldValue] {
    [
      "displayName": .text(displayName), "titleKey": .text(titleKey),
      "recipeDescription": FieldValue(recipeDescription), "recipeIngredient": .textList(recipeIngredient),
      "normalizedIngredients": .textList(normalizedIngredients), "recipeInstructions": .textList(recipeInstructions),
      "recipeCategory": FieldValue(recipeCategory), "recipeCuisine": FieldValue(recipeCuisine),
      "recipeYield": FieldValue(recipeYield), "prepTime": FieldValue(prepTime), "cookTime": FieldValue(cookTime),
      "totalTime": FieldValue(totalTime), "keywords": .textList(keywords), "author": FieldValue(author),
      "datePublished": FieldValue(datePublished), "sourceType": .text(sourceType.rawValue),
      "sourceURL": FieldValue(sourceURL), "sourcePageNumber": sourcePageNumber.map(FieldValue.integer) ?? .null,
      "book": FieldValue(book), "tags": .referenceList(tags), "notes": FieldValue(notes),
      "isFavorite": .bool(isFavorite), "usageCount": .integer(usageCount), "lastUsed": FieldValue(lastUsed),
    ]
  }
}
