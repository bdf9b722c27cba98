import Foundation

/// A position in a household's log, as a pull hands it out and takes it back.
///
/// To an HTTP client the cursor is an opaque string: pass back the `cursor` of the last
/// page to continue. It encodes the sequence number of the last batch the page held (so a
/// `CloudStore` client can turn the sequence numbers its engine keeps into a cursor) under
/// a version tag, so the server can change what a cursor holds without breaking clients
/// that only pass cursors back.
///
/// ```swift
/// let cursor = PullCursor(after: 42).encoded   // "c1.42" in base64url
/// PullCursor(encoded: cursor)?.sequence        // 42
/// ```
public struct PullCursor: Sendable, Hashable {
  /// The last sequence number already delivered; the page starts after it.
  public let sequence: Int64

  /// The cursor of the position after `sequence` (0: the start of the log).
  public init(after sequence: Int64) {
    self.sequence = max(0, sequence)
  }

  /// Reads a cursor a server issued; nil when `encoded` is not one.
  public init?(encoded: String) {
    guard encoded.utf8.count <= 64, let data = Base64URL.decode(encoded), let text = String(data: data, encoding: .utf8),
      text.hasPrefix(Self.tag), let sequence = Int64(text.dropFirst(Self.tag.count)), sequence >= 0,
      text == Self.tag + String(sequence)
    else { return nil }
    self.sequence = sequence
  }

  /// The opaque form sent over the wire: base64url, without padding.
  public var encoded: String { Base64URL.encode(Data((Self.tag + String(sequence)).utf8)) }

  private static let tag = "c1."
}
