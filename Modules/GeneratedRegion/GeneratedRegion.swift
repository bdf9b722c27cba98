/// A region of a text page that a program writes: everything from a `begin` comment to an
/// `end` comment, both included, so a hand-written page can hold a generated table that a
/// test keeps equal to the code it is made from.
///
/// The generated text a caller passes in holds the two markers itself (it is what the page
/// shows between them, markers included).
///
/// ```swift
/// let region = GeneratedRegion(
///   begin: "<!-- limits: generated -->", end: "<!-- limits: end -->",
///   name: "the limits table", command: "swift run tool limits --write Docs/PAGE.md")
/// let table = region.begin + "\n| a | 1 |\n" + region.end
/// region.mismatch(in: page, expected: table)   // nil when the page is current
/// let updated = region.replacing(in: page, with: table)   // nil when the page has no region
/// ```
public struct GeneratedRegion: Sendable, Equatable {
  /// The comment that opens the region.
  public let begin: String
  /// The comment that closes it.
  public let end: String
  /// What the region holds, as a mismatch message names it: "serve's limits table".
  public let name: String
  /// The command that rewrites the region, which a mismatch message tells the reader to run.
  public let command: String

  /// A region between `begin` and `end` holding `name`, rewritten by `command`.
  public init(begin: String, end: String, name: String, command: String) {
    self.begin = begin
    self.end = end
    self.name = name
    self.command = command
  }

  /// The message for a page with no region: neither marker, or `end` missing after `begin`.
  public var missingMessage: String { "the page has no region between '\(begin)' and '\(end)'" }

  /// The range from `begin` to the first `end` after it, both included; nil when the page
  /// has no such region.
  public func range(in document: String) -> Range<String.Index>? {
    guard let start = document.firstRange(of: begin), let finish = document[start.upperBound...].firstRange(of: end) else {
      return nil
    }
    return start.lowerBound..<finish.upperBound
  }

  /// The region's text, markers included; nil when the page has none.
  public func text(in document: String) -> String? { range(in: document).map { String(document[$0]) } }

  /// Why `document`'s region is not `expected` (no region, or its first differing line with
  /// what was expected and found there), or nil when it is.
  public func mismatch(in document: String, expected: String) -> String? {
    guard let region = text(in: document) else { return missingMessage }
    guard region != expected else { return nil }
    let wantedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let foundLines = region.split(separator: "\n", omittingEmptySubsequences: false)
    let line =
      zip(wantedLines, foundLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(wantedLines.count, foundLines.count)
    let wanted = line < wantedLines.count ? String(wantedLines[line]) : "(end of the region)"
    let found = line < foundLines.count ? String(foundLines[line]) : "(end of the region)"
    return "line \(line + 1) of \(name) differs: expected \(wanted), found \(found); run `\(command)`"
  }

  /// `document` with its region replaced by `generated`; nil when it has no region.
  public func replacing(in document: String, with generated: String) -> String? {
    guard let range = range(in: document) else { return nil }
    var updated = document
    updated.replaceSubrange(range, with: generated)
    return updated
  }
}
