import Crypto
public import Foundation
import SyncWire

/// A device token: an opaque random secret the server hands out once and keeps only as
/// its SHA-256, with a public id to revoke it by.
///
/// Form: `fgr1_` and 43 base64url characters (32 random bytes). A token names one
/// household and one device through its stored record; it carries nothing readable.
///
/// ```swift
/// let token = DeviceToken.generate()
/// storage.addToken(TokenRecord(id: token.id, hash: token.hash, …))
/// print(token.secret)   // shown once, to the person who issued it
/// ```
public struct DeviceToken: Sendable {
  /// The public id (`tok_` and 12 hex digits): safe to print, log and revoke by.
  public let id: String
  /// The bearer secret. Never logged, never stored.
  public let secret: String

  /// The prefix of every secret.
  public static let prefix = "fgr1_"

  /// A new token from the system's secure random source.
  public static func generate() -> DeviceToken {
    var random = SystemRandomNumberGenerator()
    let secretBytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    let idBytes = (0..<6).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    let secret = prefix + Base64URL.encode(Data(secretBytes))
    return DeviceToken(id: "tok_" + idBytes.map { String(format: "%02x", $0) }.joined(), secret: secret)
  }

  /// What the server stores and looks a token up by.
  public var hash: Data { Self.hash(secret) }

  /// The SHA-256 of a presented secret.
  public static func hash(_ secret: String) -> Data { Data(SHA256.hash(data: Data(secret.utf8))) }

  /// Whether `text` has the form of a secret (prefix, length, alphabet); says nothing of
  /// whether the server issued it.
  public static func isWellFormed(_ text: String) -> Bool {
    let bytes = text.utf8
    guard bytes.count == prefix.utf8.count + 43, bytes.starts(with: prefix.utf8) else { return false }
    return bytes.dropFirst(prefix.utf8.count).allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        true
      default: false
      }
    }
  }
}
