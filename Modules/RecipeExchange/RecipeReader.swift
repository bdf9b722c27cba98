public import Foundation

/// Reads schema.org Recipes from a saved web page or a JSON-LD file.
///
/// The bytes are decoded in the character set the page declares (UTF-8, UTF-16 and the
/// legacy sets browsers read, with a fallback that warns), a page's
/// `<script type="application/ld+json">` blocks found by a tolerant scanner (no HTML
/// parser), each parsed as JSON — strictly, or after repairing what real pages write
/// that is not strict JSON — and every Recipe in them read, in the shapes sites publish
/// (Docs/IMPORT.md). A page whose JSON-LD gives no Recipe is read for one written as
/// microdata (`itemscope`, `itemprop`), else as RDFa Lite (`typeof`, `property`), into the
/// same fields with the same limits. A broken block next to a good one is a warning, not
/// an error. The reader creates nothing: it returns plain values.
///
/// ```swift
/// let reading = try RecipeReader().read(Data(contentsOf: url))
/// for recipe in reading.recipes { print(recipe.name, recipe.ingredients.count) }
/// ```
public struct RecipeReader: Sendable {
  /// What one file gave.
  public struct Reading: Sendable, Hashable {
    /// Every distinct recipe, in page order.
    public var recipes: [ImportedRecipe]
    /// Problems of the page as a whole (a broken JSON-LD block, a nameless Recipe).
    public var warnings: [String]
  }

  /// How much the reader takes in.
  public let limits: ReadLimits

  /// A reader with these limits.
  public init(limits: ReadLimits = ReadLimits()) { self.limits = limits }

  /// The recipes in a file's bytes.
  /// - Throws: ``RecipeReadError`` when the file is too large, binary, neither HTML nor
  ///   JSON, broken JSON, or holds no Recipe.
  public func read(_ data: Data) throws(RecipeReadError) -> Reading {
    guard data.count <= limits.maximumBytes else { throw .tooLarge(bytes: data.count, maximum: limits.maximumBytes) }
    let decoded = try PageDecoding.decode(data)
    let text = decoded.text
    let start = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
    var reading: Reading
    if start == "{" || start == "[" {
      reading = try read(blocks: [text], pageURL: nil, page: nil)
    } else {
      guard start == "<" || Self.opensAPageSoon(text) else { throw .notPageOrJSON }
      let scanned = ScriptBlockScanner(text).scan()
      reading = try read(blocks: scanned.blocks, pageURL: scanned.canonicalURL, page: text)
    }
    if let warning = decoded.warning { reading.warnings.insert(warning, at: 0) }
    return reading
  }

  /// A stray character or word before `<!DOCTYPE` or `<html` (a page saved with a `"` in
  /// front, which browsers show as text and read on): the page starts within its first
  /// 256 characters.
  private static func opensAPageSoon(_ text: String) -> Bool {
    let lowered = String(String.UnicodeScalarView(text.unicodeScalars.prefix(256))).lowercased()
    return lowered.contains("<!doctype html") || lowered.contains("<html")
  }

  /// The recipes of JSON-LD blocks and, on a page whose JSON-LD gives none, of its
  /// microdata or RDFa (`page` is the page's text; nil for a JSON file).
  private func read(blocks: [String], pageURL: String?, page: String?) throws(RecipeReadError) -> Reading {
    let isPage = page != nil
    var objects: [[String: Any]] = [], warnings: [String] = [], firstProblem: String?
    for (number, block) in blocks.enumerated() {
      switch BlockParser.parse(block) {
      case .success(let json):
        objects += RecipeLocator.recipes(in: json)
      case .failure(let problem):
        let reason = isPage && blocks.count > 1 ? "JSON-LD block \(number + 1): \(problem.description)" : problem.description
        firstProblem = firstProblem ?? reason
        if isPage { warnings.append("JSON-LD block \(number + 1) is not valid JSON (\(problem.description)); skipped") }
      }
    }
    var (recipes, skipped) = self.recipes(objects, pageURL: pageURL)
    if recipes.isEmpty, let page {
      // JSON-LD first; a page whose JSON-LD gives no recipe may write it in its markup.
      let markup = PageMarkup.recipes(in: page, limits: limits)
      (recipes, skipped) = self.recipes(markup.objects, pageURL: pageURL)
      warnings += markup.warnings
      if recipes.isEmpty, let stopped = markup.stopped, firstProblem == nil { throw .tooMuchMarkup(stopped) }
    }
    if recipes.isEmpty {
      // Only a broken block could have held the recipe: say what was broken.
      if let firstProblem, objects.isEmpty { throw .brokenJSON(firstProblem) }
      throw .noRecipe(blocks: blocks.count)
    }
    return Reading(recipes: recipes, warnings: warnings + skipped)
  }

  /// Each distinct recipe of the Recipe objects, and why the others were skipped.
  private func recipes(_ objects: [[String: Any]], pageURL: String?) -> (recipes: [ImportedRecipe], warnings: [String]) {
    var recipes: [ImportedRecipe] = [], warnings: [String] = []
    for object in objects {
      var fields = RecipeFields(object, pageURL: pageURL, limits: limits)
      if let recipe = fields.read() {
        if !recipes.contains(where: { $0.name == recipe.name && $0.ingredients == recipe.ingredients }) { recipes.append(recipe) }
      } else {
        warnings += fields.warnings
      }
    }
    return (recipes, warnings)
  }
}
