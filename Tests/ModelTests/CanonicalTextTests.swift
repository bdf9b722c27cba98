import Foundation
import Model
import Testing

/// Every text is stored in one form, NFC (`ValueRules.canonical`), and values compare by
/// their bytes: canonically equivalent texts in different forms become the same bytes, and
/// texts that are different bytes are different values.
@Suite("Canonical text")
struct CanonicalTextTests {
  /// Known NFC mappings: composition, Hangul syllables, reordered combining marks,
  /// singletons and a composition exclusion (U+0958 stays decomposed in NFC).
  @Test(
    arguments: [
      ("Cre\u{300}me bru\u{302}le\u{301}e", "Cr\u{E8}me br\u{FB}l\u{E9}e"),
      ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
      ("\u{AC00}\u{11C2}", "\u{AC1B}"),
      ("\u{AC00}\u{1161}", "\u{AC00}\u{1161}"),
      ("a\u{302}\u{323}", "\u{1EAD}"),
      ("a\u{323}\u{302}", "\u{1EAD}"),
      ("\u{212B}ngstr\u{F6}m", "\u{C5}ngstr\u{F6}m"),
      ("\u{2126}", "\u{3A9}"),
      ("\u{958}", "\u{915}\u{93C}"),
      ("Produce", "Produce"),
      ("Cr\u{E8}me", "Cr\u{E8}me"),
    ] as [(String, String)])
  func mapsToNFCByteForByte(_ text: String, _ nfc: String) {
    let canonical = ValueRules.canonical(text)
    #expect(Array(canonical.utf8) == Array(nfc.utf8))
    #expect(ValueRules.isCanonical(canonical))
    #expect(ValueRules.isCanonical(text) == Array(text.utf8).elementsEqual(nfc.utf8))
  }

  /// Seeded strings mixing ASCII, precomposed and decomposed Latin letters, combining marks
  /// in any order, Hangul jamo and syllables, singletons and emoji: the canonical form is
  /// idempotent, is Foundation's NFC of the text's NFD (Foundation's composition alone
  /// does not compose a two-jamo syllable with a trailing jamo), is canonically equivalent
  /// to the text, and canonically equivalent spellings (the text, its NFD, its NFC) map to
  /// identical bytes.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func generatedTextsMapEquivalentSpellingsToOneForm(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    for index in 0..<500 {
      let text = Self.mixedText(using: &random)
      let canonical = ValueRules.canonical(text)
      let context = "seed \(seed), text \(index): \(text.unicodeScalars.map { String($0.value, radix: 16) })"
      #expect(Array(ValueRules.canonical(canonical).utf8) == Array(canonical.utf8), "not idempotent; \(context)")
      let nfc = text.decomposedStringWithCanonicalMapping.precomposedStringWithCanonicalMapping
      #expect(Array(canonical.utf8) == Array(nfc.utf8), "not NFC; \(context)")
      #expect(Array(ValueRules.canonical(text.precomposedStringWithCanonicalMapping).utf8) == Array(canonical.utf8), "\(context)")
      let decomposed = ValueRules.canonical(text.decomposedStringWithCanonicalMapping)
      #expect(Array(decomposed.utf8) == Array(canonical.utf8), "NFD maps elsewhere; \(context)")
      #expect(canonical == text, "not canonically equivalent; \(context)")
      #expect(FieldValue.text(decomposed) == FieldValue.text(canonical))
    }
  }

  /// The fast path: text whose scalars are all below U+0300 is returned unchanged, which
  /// is right only if Foundation's NFC leaves every such scalar, after a letter, as it is.
  @Test func everyScalarBelowTheCombiningMarksIsItsOwnNFC() {
    for value in UInt32(1)..<0x300 {
      let text = "e" + String(Unicode.Scalar(value)!) + "\u{2FF}"
      #expect(Array(text.precomposedStringWithCanonicalMapping.utf8) == Array(text.utf8), "U+\(String(value, radix: 16))")
      #expect(Array(ValueRules.canonical(text).utf8) == Array(text.utf8))
    }
  }

  static func mixedText(using random: inout SeededGenerator) -> String {
    let pieces: [[Unicode.Scalar]] = [
      ["a", "e", "o", "u", "n", "c", "A", "E", " ", "-"],
      ["\u{E8}", "\u{E9}", "\u{FB}", "\u{E7}", "\u{F1}", "\u{C5}", "\u{1EAD}", "\u{1E69}"],
      ["\u{300}", "\u{301}", "\u{302}", "\u{303}", "\u{308}", "\u{323}", "\u{327}", "\u{30A}", "\u{31B}"],
      ["\u{1100}", "\u{1112}", "\u{1161}", "\u{1175}", "\u{11A8}", "\u{11C2}", "\u{AC00}", "\u{D7A3}", "\u{AC01}"],
      ["\u{212B}", "\u{2126}", "\u{958}", "\u{93C}", "\u{915}", "\u{1F600}", "\u{1F44D}", "\u{1F3FD}", "\u{FB01}"],
    ]
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 1...24, using: &random) {
      let group = pieces[Int.random(in: 0..<pieces.count, using: &random)]
      scalars.append(group[Int.random(in: 0..<group.count, using: &random)])
    }
    return String(scalars)
  }

  @Test func valuesCompareAndHashByTheirBytes() {
    let composed = "Cr\u{E8}me", decomposed = "Cre\u{300}me"
    // Swift's String equality is canonical equivalence: it would call these one value.
    #expect(composed == decomposed)
    #expect(FieldValue.text(composed) != FieldValue.text(decomposed))
    #expect(FieldValue.textList(["x", composed]) != FieldValue.textList(["x", decomposed]))
    #expect(FieldValue.textList(["x", composed]) == FieldValue.textList(["x", composed]))
    #expect(Set([FieldValue.text(composed), .text(decomposed), .text(composed)]).count == 2)
    #expect(FieldValue.textList(["ab", "c"]) != FieldValue.textList(["a", "bc"]))
    #expect(FieldValue.text(decomposed).canonical == FieldValue.text(composed))
    #expect(FieldValue.text(composed).canonicalized == nil)
    #expect(FieldValue.textList(["x", decomposed]).canonical == FieldValue.textList(["x", composed]))
    #expect(FieldValue.integer(3).canonicalized == nil)
  }

  @Test func aRecordIsCanonicalInEveryTextAndItsOwner() {
    let meta = RecordMetadata(id: UUID(), createdAt: Date(timeIntervalSince1970: 0), ownerID: "Ame\u{301}lie")
    let record = Record(
      kind: .ingredientTemplate, meta: meta,
      fields: [
        "displayName": .text("Cre\u{300}me"), "canonicalName": .text("creme"), "aliases": .textList(["cre\u{300}me frai\u{302}che"]),
      ]
    )
    let canonical = record.canonical
    #expect(canonical != record)
    #expect(canonical["displayName"] == .text("Cr\u{E8}me"))
    #expect(canonical["canonicalName"] == .text("creme"))
    #expect(canonical["aliases"] == .textList(["cr\u{E8}me fra\u{EE}che"]))
    #expect(Array(canonical.meta.ownerID.utf8) == Array("Am\u{E9}lie".utf8))
    #expect(canonical.canonical == canonical)
  }
}
