package import Foundation

/// base64url without padding (RFC 4648 §5): the alphabet of cursors and device secrets,
/// safe in URLs and headers without escaping.
package enum Base64URL {
  /// The bytes as base64url, without `=` padding.
  package static func encode(_ data: Data) -> String {
    String(
      decoding: data.base64EncodedData().compactMap { byte -> UInt8? in
        switch byte {
        case UInt8(ascii: "+"): UInt8(ascii: "-")
        case UInt8(ascii: "/"): UInt8(ascii: "_")
        case UInt8(ascii: "="): nil
        default: byte
        }
      }, as: UTF8.self)
  }

  /// The bytes of unpadded base64url text; nil when it is not (standard base64's `+`, `/`
  /// and `=` included).
  package static func decode(_ text: String) -> Data? {
    var base64: [UInt8] = []
    base64.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
      case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
      default: base64.append(byte)
      }
    }
    while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
    return Data(base64Encoded: Data(base64))
  }
}
