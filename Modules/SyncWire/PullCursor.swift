import Foundation

/// A position in a household's log, as a pull hands it out and takes it back.
///
/// To an HTTP client the cursor is an opaque string: pass back the `cursor` of the last
/// page to continue. It encodes the sequence number of the last batch the page held (so a
/// `CloudStore` client can turn the sequence numbers its engine keeps into a cursor) and
/// the identifier of the household's log it belongs to, under a version tag, so the server
/// can change what a cursor holds without breaking clients that only pass cursors back. A
/// cursor of another log (one from before a restore that gave the log a new identifier) is
/// refused rather than read as a place in this one; a cursor without a log (`c1`, from an
/// earlier server) is still read.
///
/// ```swift
/// let cursor = PullCursor(after: 42, log: session.cloudIdentifier).encoded
/// PullCursor(encoded: cursor)?.sequence        // 42
/// ```
public struct PullCursor: Sendable, Hashable {
  /// The last sequence number already delivered; the page starts after it.
  public let sequence: Int64
  /// The identifier of the household's log (a UUID, lowercased); nil in a `c1` cursor.
  public let log: String?

  /// The cursor of the position after `sequence` (0: the start of the log) in `log`.
  public init(after sequence: Int64, log: String? = nil) {
    self.sequence = max(0, sequence)
    self.log = log?.lowercased()
  }

  /// Reads a cursor a server issued; nil when `encoded` is not one.
  public init?(encoded: String) {
    guard encoded.utf8.count <= 128, let data = Base64URL.decode(encoded), let text = String(data: data, encoding: .utf8) else {
      return nil
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    switch (parts.first, parts.count) {
    case ("c1", 2):
      guard let sequence = Self.sequence(parts[1]) else { return nil }
      self.init(after: sequence)
    case ("c2", 3):
      guard let sequence = Self.sequence(parts[1]), let log = UUID(uuidString: String(parts[2])),
        log.uuidString.lowercased() == parts[2]
      else { return nil }
      self.init(after: sequence, log: String(parts[2]))
    default: return nil
    }
  }

  /// The opaque form sent over the wire: base64url, without padding.
  public var encoded: String {
    let text = log.map { "c2.\(sequence).\($0)" } ?? "c1.\(sequence)"
    return Base64URL.encode(Data(text.utf8))
  }

  /// A whole number ≥ 0 written as the cursor writes it (no sign, no leading zeros).
  private static func sequence(_ text: Substring) -> Int64? {
    guard let value = Int64(text), value >= 0, String(value) == text else { return nil }
    return value
  }
}
