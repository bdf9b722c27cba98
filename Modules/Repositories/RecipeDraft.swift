import Foundation
public import Model

/// What a person gives to create a recipe. Times accept minutes ("20"), "1h30m", "1:30"
/// or ISO 8601 ("PT20M"); ingredient lines are parsed ("2 ½ cups diced tomatoes").
public struct RecipeDraft: Sendable, Hashable {
  public var name: String
  public var ingredients: [String]
  /// The heading each ingredient line stands under ("For the sauce"), by position: nil,
  /// or a missing entry past the end, for a line outside any group. A trailing colon is
  /// dropped; a heading follows the rules of a name.
  public var ingredientGroups: [String?] = []
  public var instructions: [String]
  public var description: String?
  public var cuisine: String?
  public var category: String?
  public var yield: String?
  public var prepTime: String?
  public var cookTime: String?
  public var totalTime: String?
  public var keywords: [String]
  public var tags: [String]
  public var author: String?
  /// "YYYY-MM-DD".
  public var datePublished: String?
  /// A book title; the book is found or created (with `bookAuthor`).
  public var book: String?
  public var bookAuthor: String?
  public var page: Int?
  public var url: String?
  public var notes: String?
  public var isFavorite: Bool

  public init(
    name: String, ingredients: [String] = [], instructions: [String] = [], description: String? = nil,
    cuisine: String? = nil, category: String? = nil, yield: String? = nil, prepTime: String? = nil,
    cookTime: String? = nil, totalTime: String? = nil, keywords: [String] = [], tags: [String] = [],
    author: String? = nil, datePublished: String? = nil, book: String? = nil, bookAuthor: String? = nil,
    page: Int? = nil, url: String? = nil, notes: String? = nil, isFavorite: Bool = false
  ) {
    self.name = name
    self.ingredients = ingredients
    self.instructions = instructions
    self.description = description
    self.cuisine = cuisine
    self.category = category
    self.yield = yield
    self.prepTime = prepTime
    self.cookTime = cookTime
    self.totalTime = totalTime
    self.keywords = keywords
    self.tags = tags
    self.author = author
    self.datePublished = datePublished
    self.book = book
    self.bookAuthor = bookAuthor
    self.page = page
    self.url = url
    self.notes = notes
    self.isFavorite = isFavorite
  }
}

/// The result of asking to create a recipe.
public enum RecipeCreation: Sendable, Hashable {
  /// The recipe was created.
  case created(Recipe)
  /// Live recipes with the same title key exist; nothing was created. Create it anyway
  /// with `allowSimilar: true`, or use one of these.
  case similarExists([Recipe])
}

/// One change to an existing recipe.
public enum RecipeChange: Sendable, Hashable {
  case description(String?)
  case cuisine(String?)
  case category(String?)
  case yield(String?)
  case prepTime(String?)
  case cookTime(String?)
  case totalTime(String?)
  case notes(String?)
  case url(String?)
  case page(Int?)
  case book(title: String?, author: String?)
  case favorite(Bool)
  case keywords([String])
  case addTags([String])
  case removeTags([String])
  case instructions([String])
  case author(String?)
  /// "YYYY-MM-DD".
  case datePublished(String?)
}

/// How long a recipe's texts may be. A name, cuisine, category, yield or author is a
/// name (``NameRules/maximumLength``); a description or notes can be a few paragraphs, as
/// on real recipe pages; an ingredient line is one line, however wordy.
public enum RecipeLimits {
  public static let description = 10_000
  public static let notes = 10_000
  public static let ingredientLine = 1_000
  public static let shortText = NameRules.maximumLength
}

/// A recipe with everything it points at, for showing.
public struct RecipeDetails: Sendable, Hashable {
  public struct Line: Sendable, Hashable {
    public let ingredient: RecipeIngredient
    public let template: IngredientTemplate?
  }

  public let recipe: Recipe
  public let lines: [Line]
  public let book: Book?
  public let tags: [Tag]
  public let plannedMeals: [PlannedMeal]
}
