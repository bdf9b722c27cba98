/// Names in, semantic keys out: the single source of truth for when two records are "the same".
///
/// Every function is pure and total: it never crashes, never throws, and gives the same
/// key for the same input on every device. Two records of a unique kind whose keys are
/// equal are duplicates. The rules, with examples, are in `Docs/NORMALIZATION.md`.
///
/// ```swift
/// SemanticKey.normalizedName("  MEAT &  Seafood ")   // "meat & seafood"
/// SemanticKey.canonicalIngredientName("Green Onions") // "spring onion"
/// SemanticKey.titleKey("Mom's Lasagna")              // "moms lasagna"
/// ```
public enum SemanticKey {
  /// Folds a display name to the key of a category, tag or any plain name.
  ///
  /// Unicode NFKC (ligatures, full-width letters), full case folding (ß → "ss", İ → "i"),
  /// diacritics stripped (crème → creme), a few Latin letters folded (œ → oe, ø → o),
  /// invisible characters dropped, whitespace of any kind trimmed and collapsed to one space.
  ///
  /// ```swift
  /// SemanticKey.normalizedName("  MEAT &  Seafood ") // "meat & seafood"
  /// SemanticKey.normalizedName(" \t ")              // ""
  /// ```
  /// - Parameter text: Any string.
  /// - Returns: The key; "" for empty or whitespace-only input. Idempotent.
  public static func normalizedName(_ text: String) -> String {
    TextFolding.collapsingWhitespace(TextFolding.fold(text))
  }

  /// Folds an ingredient name to the key of an ingredient template.
  ///
  /// `normalizedName`, then the head noun made singular (`Inflection.singularizeHeadNoun`),
  /// then the alias table: `defaultAliases` merged with `aliases` (which win). Keys and
  /// values of both tables are canonicalized the same way first, and chains are followed
  /// to their end, so the result is idempotent.
  ///
  /// ```swift
  /// SemanticKey.canonicalIngredientName("Roma Tomatoes") // "roma tomato"
  /// SemanticKey.canonicalIngredientName("Green Onions")  // "spring onion"
  /// SemanticKey.canonicalIngredientName("tomatoes", aliases: ["tomato": "love apple"]) // "love apple"
  /// ```
  /// - Parameters:
  ///   - text: An ingredient name as written.
  ///   - aliases: Extra variant → canonical pairs, for example a template's own aliases.
  ///     Merging them costs a pass over both tables per call; call without them for speed.
  public static func canonicalIngredientName(_ text: String, aliases: [String: String] = [:]) -> String {
    guard aliases.isEmpty else { return AliasResolver(merging: aliases).resolve(AliasResolver.canonicalBase(text)) }
    return recentIngredientKeys.key(of: text) { AliasResolver.defaults.resolve(AliasResolver.canonicalBase($0)) }
  }

  /// The ingredient names folded last without extra aliases, with their keys: the store's
  /// check of a record a repository just keyed, and a sync's keys of states it reads
  /// again, find them here.
  static let recentIngredientKeys = RecentKeys()

  /// Folds a recipe title to its key: `normalizedName` without punctuation.
  ///
  /// Apostrophes and periods are deleted ("Mom's" → "moms", "P.F." → "pf"), "&" becomes
  /// "and", every other character that is not a letter, digit or combining mark becomes a
  /// space, and whitespace is collapsed again.
  ///
  /// ```swift
  /// SemanticKey.titleKey("Mom's Lasagna") // "moms lasagna"
  /// SemanticKey.titleKey("Moms Lasagna")  // "moms lasagna"
  /// SemanticKey.titleKey("Mac & Cheese")  // "mac and cheese"
  /// ```
  public static func titleKey(_ text: String) -> String {
    let folded = TextFolding.fold(text)
    var scalars = String.UnicodeScalarView()
    for scalar in folded.unicodeScalars {
      switch scalar {
      case "'", "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}", ".":
        continue
      case "&":
        scalars.append(contentsOf: " and ".unicodeScalars)
      default:
        scalars.append(isWordScalar(scalar) ? scalar : " ")
      }
    }
    return TextFolding.collapsingWhitespace(String(scalars))
  }

  /// The key of a book: `titleKey(title) + "|" + normalizedName(author ?? "")`.
  ///
  /// A title key never contains "|", so the first "|" always separates the two parts.
  ///
  /// ```swift
  /// SemanticKey.bookKey(title: "Salt, Fat, Acid, Heat", author: "Samin Nosrat")
  /// // "salt fat acid heat|samin nosrat"
  /// ```
  public static func bookKey(title: String, author: String?) -> String {
    titleKey(title) + "|" + normalizedName(author ?? "")
  }

  /// The key of a planned-meal slot: civil date and meal type, "2024-12-13-dinner".
  ///
  /// The date is a civil date (no instant, no time zone) and is not validated; the year is
  /// padded to four digits, month and day to two. The meal type is `normalizedName`d.
  ///
  /// ```swift
  /// SemanticKey.slotKey(year: 2024, month: 12, day: 3, mealType: " Dinner ") // "2024-12-03-dinner"
  /// ```
  public static func slotKey(year: Int, month: Int, day: Int, mealType: String) -> String {
    "\(CivilCalendar.padded(year, width: 4))-\(CivilCalendar.padded(month, width: 2))-"
      + "\(CivilCalendar.padded(day, width: 2))-\(normalizedName(mealType))"
  }

  /// The key of a weekly list: its ISO week, "|", and its `normalizedName`.
  ///
  /// Two lists are one when they are for the same week and their names fold to the same
  /// name (Docs/DESIGN.md §2): "Weekly" and " weekly " for 2024-W50 are one list, "Costco" and
  /// "Farmers market" two. The week is taken as written (lists store the canonical
  /// `ISOWeek` form); a week never contains "|".
  ///
  /// ```swift
  /// SemanticKey.listKey(week: "2024-W50", name: " Weekly ") // "2024-W50|weekly"
  /// ```
  public static func listKey(week: String, name: String) -> String {
    week + "|" + normalizedName(name)
  }

  /// The built-in alias table (variant canonical name → canonical name), canonicalized.
  ///
  /// "scallion" and "green onion" → "spring onion", "capsicum" → "bell pepper",
  /// "garbanzo bean" → "chickpea", "aubergine" → "eggplant", "courgette" → "zucchini",
  /// "coriander leaf" → "cilantro", and a few more regional spellings; see
  /// `Docs/NORMALIZATION.md`.
  public static let defaultAliases: [String: String] = {
    var result: [String: String] = [:]
    for key in DefaultAliasTable.table.keys {
      let canonicalKey = AliasResolver.canonicalBase(key)
      let value = AliasResolver.defaults.resolve(canonicalKey)
      if value != canonicalKey { result[canonicalKey] = value }
    }
    return result
  }()

  private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }
}
