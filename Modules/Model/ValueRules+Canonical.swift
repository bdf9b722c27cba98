import Foundation

/// One stored form for every text: Unicode Normalization Form C (NFC).
///
/// Canonically equivalent texts ("Crème" typed with a precomposed "è" on one device and as
/// "e" + U+0300 on another) compare equal as Swift strings but are different bytes in a
/// table, a state or a change batch. Every value that enters a store or a device's
/// replicated state is put into NFC here, so equal texts are equal bytes everywhere and
/// byte-exact comparison (``FieldValue``'s `==`) can tell converged devices from diverged
/// ones.
///
/// ```swift
/// ValueRules.canonical("Cre\u{300}me")  // "Crème" with U+00E8: the bytes 43 72 C3 A8 6D 65
/// ```
extension ValueRules {
  /// `text` in NFC. Text whose every scalar is below U+0300 (ASCII, most names, and the
  /// precomposed Latin letters) is NFC already and is returned as it is after one pass over
  /// its bytes; other text is decomposed and composed again by Foundation.
  public static func canonical(_ text: String) -> String {
    if isBelowCombiningMarks(text) { return text }
    // Decomposed first, as NFC is defined: Foundation's composition alone leaves a Hangul
    // syllable of two jamo and a trailing jamo apart ("가" + U+11C2 stays two scalars,
    // though its NFC is "갛"), so two spellings of one text would stay different bytes.
    let composed = text.decomposedStringWithCanonicalMapping.precomposedStringWithCanonicalMapping
    // The same bytes: hand back the caller's string rather than a copy.
    return composed.utf8.elementsEqual(text.utf8) ? text : composed
  }

  /// Whether `text` is in NFC already (``canonical(_:)`` would return the same bytes).
  public static func isCanonical(_ text: String) -> Bool {
    isBelowCombiningMarks(text) || canonical(text).utf8.elementsEqual(text.utf8)
  }

  /// Whether every scalar is below U+0300, where the combining marks begin: such text is
  /// NFC (no scalar there has another canonical form, and every scalar that composes with a
  /// preceding one is U+0300 or above). In UTF-8 that is every byte below 0xCC, the lead
  /// byte of U+0300–U+033F.
  private static func isBelowCombiningMarks(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0xCC } }
  }
}

extension FieldValue {
  /// The value with its text, or each text of its list, in NFC (``ValueRules/canonical(_:)``);
  /// nil when it is already canonical, so a caller copies only what changes.
  public var canonicalized: FieldValue? {
    switch self {
    case .text(let text):
      let canonical = ValueRules.canonical(text)
      return canonical.utf8.elementsEqual(text.utf8) ? nil : .text(canonical)
    case .textList(let texts):
      guard let first = texts.firstIndex(where: { !ValueRules.isCanonical($0) }) else { return nil }
      var canonical = texts
      for index in first..<texts.endIndex { canonical[index] = ValueRules.canonical(texts[index]) }
      return .textList(canonical)
    case .null, .integer, .real, .bool, .timestamp, .reference, .referenceList:
      return nil
    }
  }

  /// The value with its texts in NFC.
  public var canonical: FieldValue { canonicalized ?? self }
}

extension Record {
  /// The record with every text value and its owner in NFC (``ValueRules/canonical(_:)``):
  /// what a store writes, so that a row holds the same bytes whichever form its writer
  /// typed. A record already canonical (any ASCII record) is returned without a copy.
  public var canonical: Record {
    var record = self
    for (position, value) in values.enumerated() {
      if let canonical = value.canonicalized { record[position: position] = canonical }
    }
    for name in unknownFields {
      if let canonical = self[name].canonicalized { record[name] = canonical }
    }
    let owner = ValueRules.canonical(meta.ownerID)
    if !owner.utf8.elementsEqual(meta.ownerID.utf8) { record.meta.ownerID = owner }
    return record
  }
}
