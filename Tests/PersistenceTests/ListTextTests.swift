import Foundation
import Model
import Persistence
import Testing

/// Lists are stored as the JSON text `JSONEncoder` writes (slashes unescaped), whichever
/// path writes them: the copy for lists with nothing to escape, or the escaping one.
@Suite("List text")
struct ListTextTests {
  static let lists: [[String]] = [
    [], [""], ["a"], ["displayName", "usageCount"], ["crème brûlée", "がん", "a/b"],
    ["say \"hi\""], ["back\\slash"], ["tab\there", "line\nbreak", "cr\r", "\u{01}\u{1F}"], ["plain", "quote\""],
  ]

  @Test(arguments: lists)
  func listTextIsWhatJSONEncoderWrites(list: [String]) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    let expected = String(decoding: try encoder.encode(list), as: UTF8.self)
    #expect(FieldValue.jsonArray(list) == expected)
    #expect(FieldValue.decodeJSONArray(FieldValue.jsonArray(list)) == list)
  }
}
