public import Foundation

/// Reads schema.org Recipes from a saved web page or a JSON-LD file.
///
/// A page's `<script type="application/ld+json">` blocks are found by a tolerant scanner
/// (no HTML parser), each parsed as JSON, and every Recipe in them read, in the shapes
/// sites publish (Docs/IMPORT.md). A broken block next to a good one is a warning, not
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

  public let limits: ReadLimits

  public init(limits: ReadLimits = ReadLimits()) { self.limits = limits }

  /// The recipes in a file's bytes.
  /// - Throws: ``RecipeReadError`` when the file is too large, binary, neither HTML nor
  ///   JSON, broken JSON, or holds no Recipe.
  public func read(_ data: Data) throws(RecipeReadError) -> Reading {
    guard data.count <= limits.maximumBytes else { throw .tooLarge(bytes: data.count, maximum: limits.maximumBytes) }
    guard !Self.looksBinary(data) else { throw .binary }
    // Pages not in UTF-8 are, nearly always, in Latin-1 or its Windows superset.
    let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? String(decoding: data, as: UTF8.self)
    let start = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
    if start == "{" || start == "[" {
      return try read(blocks: [text], pageURL: nil, isPage: false)
    }
    guard start == "<" else { throw .notPageOrJSON }
    let page = ScriptBlockScanner(text).scan()
    return try read(blocks: page.blocks, pageURL: page.canonicalURL, isPage: true)
  }

  private func read(blocks: [String], pageURL: String?, isPage: Bool) throws(RecipeReadError) -> Reading {
    var objects: [[String: Any]] = [], warnings: [String] = [], firstProblem: String?
    for (number, block) in blocks.enumerated() {
      do {
        let json = try JSONSerialization.jsonObject(with: Data(block.utf8), options: [.fragmentsAllowed])
        objects += RecipeLocator.recipes(in: json)
      } catch {
        let reason = Self.describe(error)
        firstProblem = firstProblem ?? reason
        if isPage { warnings.append("JSON-LD block \(number + 1) is not valid JSON (\(reason)); skipped") }
      }
    }
    var recipes: [ImportedRecipe] = []
    for object in objects {
      var fields = RecipeFields(object, pageURL: pageURL, limits: limits)
      if let recipe = fields.read() {
        if !recipes.contains(where: { $0.name == recipe.name && $0.ingredients == recipe.ingredients }) { recipes.append(recipe) }
      } else {
        warnings += fields.warnings
      }
    }
    if recipes.isEmpty {
      // Only a broken block could have held the recipe: say what was broken.
      if let firstProblem, objects.isEmpty { throw .brokenJSON(firstProblem) }
      throw .noRecipe(blocks: blocks.count)
    }
    return Reading(recipes: recipes, warnings: warnings)
  }

  /// A NUL byte anywhere, or more than 1 % control bytes (other than tab, line breaks
  /// and form feed) in the first 8 KB: an image, archive or program, not text.
  /// Reads the bytes in place: `Data`'s own iterator took a fifth of a page's read time.
  static func looksBinary(_ data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      guard let start = bytes.baseAddress else { return false }
      if memchr(start, 0, bytes.count) != nil { return true }
      let sample = UnsafeRawBufferPointer(rebasing: bytes.prefix(8192))
      var controls = 0
      for byte in sample where (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D) || byte == 0x7F {
        controls += 1
      }
      return controls * 100 > sample.count
    }
  }

  /// Foundation's parse error in a few words ("Unexpected end of file…").
  private static func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    return detail.split(separator: "\n").first.map(String.init) ?? "unreadable"
  }
}
