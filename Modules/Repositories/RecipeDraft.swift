import Foundation
public import Model

/// What a person gives to create a recipe. Times accept minutes ("20"), "1h30m", "1:30"
/// or ISO 8601 ("PT20M"); ingredient lines are parsed ("2 ½ cups diced tomatoes").
public struct RecipeDraft: Sendable, Hashable {
  /// The recipe's title; its normalized form is the recipe's title key.
  public var name: String
  /// Ingredient lines as written, one per line ("2 ½ cups diced tomatoes").
  public var ingredients: [String]
  /// The heading each ingredient line stands under ("For the sauce"), by position: nil,
  /// or a missing entry past the end, for a line outside any group. A trailing colon is
  /// dropped; a heading follows the rules of a name.
  public var ingredientGroups: [String?] = []
  /// The steps, in order.
  public var instructions: [String]
  /// A short description.
  public var description: String?
  /// The cuisine ("Italian").
  public var cuisine: String?
  /// The recipe's category ("Dessert"), not a grocery category.
  public var category: String?
  /// What it makes ("4 servings").
  public var yield: String?
  /// The preparation time.
  public var prepTime: String?
  /// The cooking time.
  public var cookTime: String?
  /// The total time.
  public var totalTime: String?
  /// Search keywords.
  public var keywords: [String]
  /// Tag names; each tag is found or created.
  public var tags: [String]
  /// The recipe's author.
  public var author: String?
  /// "YYYY-MM-DD".
  public var datePublished: String?
  /// A book title; the book is found or created (with `bookAuthor`).
  public var book: String?
  /// The book's author, which with the title identifies the book.
  public var bookAuthor: String?
  /// The page in the book.
  public var page: Int?
  /// Where the recipe comes from on the web.
  public var url: String?
  /// The cook's notes.
  public var notes: String?
  /// Whether the recipe is a favorite.
  public var isFavorite: Bool

  /// A draft with a name; every other field is optional.
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
  /// Sets the description; nil clears it.
  case description(String?)
  /// Sets the cuisine; nil clears it.
  case cuisine(String?)
  /// Sets the recipe's category; nil clears it.
  case category(String?)
  /// Sets what it makes ("4 servings"); nil clears it.
  case yield(String?)
  /// Sets the preparation time (minutes, "1h30m", "1:30" or ISO 8601); nil clears it.
  case prepTime(String?)
  /// Sets the cooking time; nil clears it.
  case cookTime(String?)
  /// Sets the total time; nil clears it.
  case totalTime(String?)
  /// Sets the cook's notes; nil clears them.
  case notes(String?)
  /// Sets the web address it comes from; nil clears it.
  case url(String?)
  /// Sets the page in its book; nil clears it.
  case page(Int?)
  /// Sets the book (found or created by title and author); a nil title clears it.
  case book(title: String?, author: String?)
  /// Marks or unmarks it a favorite.
  case favorite(Bool)
  /// Replaces the keywords.
  case keywords([String])
  /// Adds tags by name, creating those that are missing.
  case addTags([String])
  /// Removes tags by name.
  case removeTags([String])
  /// Replaces the steps.
  case instructions([String])
  /// Sets the author; nil clears it.
  case author(String?)
  /// "YYYY-MM-DD".
  case datePublished(String?)
}

/// How long a recipe's texts may be. A name, cuisine, category, yield or author is a
/// name (``NameRules/maximumLength``); a description or notes can be a few paragraphs, as
/// on real recipe pages; an ingredient line is one line, however wordy.
public enum RecipeLimits {
  /// The longest description, in characters.
  public static let description = 10_000
  /// The longest notes, in characters.
  public static let notes = 10_000
  /// The longest ingredient line, in characters.
  public static let ingredientLine = 1_000
  /// The longest name, cuisine, category, yield or author.
  public static let shortText = NameRules.maximumLength
}

/// A recipe with everything it points at, for showing.
public struct RecipeDetails: Sendable, Hashable {
  /// One ingredient line with its template.
  public struct Line: Sendable, Hashable {
    /// The ingredient line.
    public let ingredient: RecipeIngredient
    /// The ingredient template it points at, if any.
    public let template: IngredientTemplate?
  }

  /// The recipe.
  public let recipe: Recipe
  /// Its ingredient lines, in order.
  public let lines: [Line]
  /// The book it is in, if any.
  public let book: Book?
  /// Its tags.
  public let tags: [Tag]
  /// The meals it is planned for.
  public let plannedMeals: [PlannedMeal]
}
