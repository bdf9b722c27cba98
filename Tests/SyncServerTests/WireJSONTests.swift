import Foundation
import SyncServer
import SyncWire
import Testing

/// The JSON the server writes by hand for pull pages and push receipts is the document
/// Foundation's encoder makes, and the checks at the door that read bytes directly refuse
/// what the scalar-based checks refused.
@Suite struct WireJSONTests {
  /// `WireCoding.encoder()` without escaping "/", which the hand-written JSON leaves as it is.
  static func foundationJSON(_ value: some Encodable) throws -> String {
    let encoder = WireCoding.encoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static let pages: [PullPage] = [
    PullPage(entries: [], cursor: PullCursor(after: 0).encoded, latestSequence: 0),
    PullPage(
      entries: [PulledBatch(sequence: 1, batch: Data([0x00, 0x46, 0x42, 0x01]))], cursor: PullCursor(after: 1).encoded, latestSequence: 9),
    PullPage(
      entries: (1...5).map { PulledBatch(sequence: Int64.max - 10 + $0, batch: Data((0..<(200 + $0)).map { UInt8(($0 * 37) & 0xFF) })) },
      cursor: PullCursor(after: Int64.max - 5).encoded, latestSequence: Int64.max),
    PullPage(
      entries: (1...3).map { PulledBatch(sequence: Int64($0), batch: Data(repeating: UInt8($0), count: $0)) },
      cursor: PullCursor(after: 3).encoded, latestSequence: 40, endedAtByteLimit: true),
  ]

  @Test(arguments: pages) func aPullPageIsFoundationsDocument(page: PullPage) throws {
    #expect(String(decoding: page.encodedJSON(), as: UTF8.self) == (try Self.foundationJSON(page)))
    #expect(try WireCoding.decoder().decode(PullPage.self, from: page.encodedJSON()) == page)
    // Its length is counted without writing it, and its pieces are the document.
    #expect(page.encodedJSONCount == page.encodedJSON().count)
    #expect(Data(page.jsonPieces().joined()) == page.encodedJSON())
    #expect(Array(page.jsonPieces()).count == page.entries.count + 2)
  }

  @Test func aPageWithoutTheByteLimitFlagDidNotEndEarly() throws {
    let page = try WireCoding.decoder().decode(PullPage.self, from: Data(#"{"cursor":"x","entries":[],"latestSequence":2}"#.utf8))
    #expect(page.endedAtByteLimit == false && page.latestSequence == 2)
  }

  @Test func aCursorThatNeedsEscapingReadsBackAsItWas() throws {
    let page = PullPage(entries: [], cursor: "a\"b\\c\n\t\u{01}/é", latestSequence: -1)
    #expect(try WireCoding.decoder().decode(PullPage.self, from: page.encodedJSON()) == page)
  }

  @Test(arguments: [true, false]) func aReceiptIsFoundationsDocument(stored: Bool) throws {
    let receipt = PushReceipt(sequence: 12, deviceSequence: -3, stored: stored)
    #expect(String(decoding: receipt.encodedJSON(), as: UTF8.self) == (try Self.foundationJSON(receipt)))
    #expect(try WireCoding.decoder().decode(PushReceipt.self, from: receipt.encodedJSON()) == receipt)
  }

  @Test func aTokensFormIsItsPrefixAnd43Base64URLCharacters() {
    let token = DeviceToken.generate()
    #expect(DeviceToken.isWellFormed(token.secret))
    let body = String(token.secret.dropFirst(DeviceToken.prefix.count))
    for bad in [
      "", DeviceToken.prefix, "fgr2_" + body, DeviceToken.prefix + body.dropLast(), token.secret + "A",
      DeviceToken.prefix + "é" + body.dropFirst(2),  // 43 characters, one of them not ASCII
      DeviceToken.prefix + "+" + body.dropFirst(), DeviceToken.prefix + " " + body.dropFirst(),
    ] {
      #expect(!DeviceToken.isWellFormed(bad), "\(bad)")
    }
  }

  @Test func anIdentifierWithAControlCharacterIsRefused() {
    #expect(throws: Never.self) { try Validation.identifier("phone-1:42", what: "batch id") }
    #expect(throws: Never.self) { try Validation.identifier("téléphone", what: "replica id") }
    for bad in ["a\u{7}b", "tab\there", "del\u{7F}", "é\u{85}", "é\u{0}"] {
      #expect(throws: ServerError.self, "\(bad.debugDescription)") { try Validation.identifier(bad, what: "batch id") }
    }
  }

  @Test func aCursorReadsBackAndIsSafeInAURL() {
    let sequences: [Int64] = Array(0...3_000) + [Int64(Int32.max), Int64.max - 1, Int64.max]
    for sequence in sequences {
      let encoded = PullCursor(after: sequence).encoded
      #expect(PullCursor(encoded: encoded)?.sequence == sequence, "\(sequence) → \(encoded)")
      #expect(!encoded.contains { "+/=".contains($0) }, "\(encoded)")
    }
    // The form clients hold: base64url of "c1.<sequence>" without padding.
    #expect(PullCursor(after: 42).encoded == "YzEuNDI")
    // Padded, base64's own "+" and "/", a base64url "-" decoding to a byte that is not a
    // digit, too long, not ASCII.
    for bad in ["YzEuNw==", "YzEuNw+", "YzEu/w", "YzEu-w", String(repeating: "A", count: 65), "é"] {
      #expect(PullCursor(encoded: bad) == nil, "\(bad)")
    }
  }
}
