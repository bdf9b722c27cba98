import Foundation

/// Parses one JSON-LD block: strictly first (the fast path every well-formed page
/// takes), then, when that fails, once more after ``JSONRepair``.
enum BlockParser {
  /// Why a block is not JSON even after repair: the parser's reason and the text near
  /// where it stopped.
  struct Problem: Error, CustomStringConvertible {
    var reason: String
    /// A few characters around the place the parser stopped, when it said where.
    var near: String?

    var description: String { near.map { "\(reason) near '\($0)'" } ?? reason }
  }

  static func parse(_ block: String) -> Result<Any, Problem> {
    let strict = Data(block.utf8)
    do {
      return .success(try JSONSerialization.jsonObject(with: strict, options: [.fragmentsAllowed]))
    } catch {
      let repaired = JSONRepair.repair(block)
      if repaired.repairs.isEmpty { return .failure(problem(error, in: Array(strict))) }
      do {
        return .success(try JSONSerialization.jsonObject(with: Data(repaired.bytes), options: [.fragmentsAllowed]))
      } catch {
        return .failure(problem(error, in: repaired.bytes))
      }
    }
  }

  /// Foundation's parse error in a few words ("Invalid value around character 9."), and
  /// the text around that place: the offset alone means little to someone reading a page.
  static func problem(_ error: any Error, in bytes: [UInt8]) -> Problem {
    let nsError = error as NSError
    let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    let reason = detail.split(separator: "\n").first.map(String.init) ?? "unreadable"
    guard let offset = characterOffset(in: reason), offset <= bytes.count else { return Problem(reason: reason) }
    let window = bytes[max(0, offset - 20)..<min(bytes.count, offset + 20)]
    let near = HTMLText.collapsingWhitespace(String(decoding: window, as: UTF8.self)).replacingOccurrences(of: "\u{FFFD}", with: "")
    return Problem(reason: reason, near: near.isEmpty ? nil : near)
  }

  /// N in "… around character N." (the form Foundation's parser gives on Linux).
  private static func characterOffset(in reason: String) -> Int? {
    guard let range = reason.range(of: "character ", options: .backwards) else { return nil }
    return Int(reason[range.upperBound...].prefix(while: \.isNumber))
  }
}
