/// Why a file gave no recipe. Each case says what was wrong in words for the person who
/// chose the file; nothing is imported from it.
public enum RecipeReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Larger than ``ReadLimits/maximumBytes``.
  case tooLarge(bytes: Int, maximum: Int)
  /// NUL bytes or other binary data: not a page.
  case binary
  /// Text, but neither HTML nor JSON.
  case notPageOrJSON
  /// A JSON file (or the only JSON-LD of a page) that does not parse.
  case brokenJSON(String)
  /// The page or file holds no schema.org Recipe; `blocks` is how many JSON-LD blocks it had.
  case noRecipe(blocks: Int)
  /// A page with no Recipe in its JSON-LD whose markup passes what is read of it (too
  /// many elements, too much text), and none in the part read: which bound stopped it.
  case tooMuchMarkup(String)

  /// A message saying why the file was not read.
  public var description: String {
    switch self {
    case .tooLarge(let bytes, let maximum):
      "the file is \(Self.megabytes(bytes)); files over \(Self.megabytes(maximum)) are not read"
    case .binary: "not a saved page or JSON file: it holds binary data"
    case .notPageOrJSON: "not a saved page (HTML) or a JSON-LD file"
    case .brokenJSON(let reason): "broken JSON: \(reason)"
    case .noRecipe(0):
      "no schema.org Recipe found: the page has no application/ld+json block, and no Recipe in microdata (itemscope) or RDFa (typeof)"
    case .noRecipe(let blocks): "no schema.org Recipe found in its \(blocks) JSON-LD block\(blocks == 1 ? "" : "s")"
    case .tooMuchMarkup(let reason): "no schema.org Recipe found in the part of the page read: \(reason)"
    }
  }

  private static func megabytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + 1024 * 1024 / 2) / (1024 * 1024)
    return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
  }
}

/// How much a reader takes in. The text limits are those of the store the recipes go to
/// (a longer text is cut, with a warning); the size limit keeps a stray video or archive
/// from being read whole.
public struct ReadLimits: Sendable, Hashable {
  /// The largest file read, in bytes (10 MiB by default).
  public var maximumBytes: Int
  /// A name, yield, cuisine, category or author.
  public var shortText: Int
  /// The longest description, in characters.
  public var description: Int
  /// The longest ingredient line, in characters.
  public var ingredientLine: Int

  /// Limits; the defaults are the store's.
  public init(maximumBytes: Int = 10 * 1024 * 1024, shortText: Int = 200, description: Int = 10_000, ingredientLine: Int = 1_000) {
    self.maximumBytes = maximumBytes
    self.shortText = shortText
    self.description = description
    self.ingredientLine = ingredientLine
  }
}
