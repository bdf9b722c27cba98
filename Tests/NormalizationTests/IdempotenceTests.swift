import Normalization
import Testing

/// Property-style checks over every input of every table test and every word table:
/// applying a key function to its own output changes nothing.
@Suite("Idempotence")
struct IdempotenceTests {
  static let inputs: [String] = {
    var all: [String] = []
    all += NormalizedNameTests.cases.flatMap { [$0.input, $0.expected] }
    all += CanonicalNameTests.cases.flatMap { [$0.input, $0.expected] }
    all += TitleKeyTests.cases.flatMap { [$0.input, $0.expected] }
    all += HeadNounTests.cases.flatMap { [$0.phrase, $0.expected] }
    all += SingularTests.allPlurals.flatMap { [$0.plural, $0.singular] }
    all += SingularTests.unchanged
    all += IngredientLineTests.all.flatMap { [$0.line, $0.name] }
    all += Array(IrregularPlurals.table.keys) + Array(IrregularPlurals.table.values)
    all += Array(InvariantNouns.words)
    all += Array(IePluralNouns.singulars) + Array(OePluralNouns.singulars) + Array(ChePluralNouns.singulars)
    all += Array(MeasureWords.table.keys)
    all += Array(DefaultAliasTable.table.keys) + Array(DefaultAliasTable.table.values)
    all += UnitTable.entries.flatMap(\.spellings)
    all += Array(NoteWords.preparation) + Array(NoteWords.size)
    return all.sorted()
  }()

  @Test func normalizedNameIsIdempotent() {
    for input in Self.inputs {
      let once = SemanticKey.normalizedName(input)
      #expect(SemanticKey.normalizedName(once) == once, "\(input)")
    }
  }

  @Test func canonicalIngredientNameIsIdempotent() {
    for input in Self.inputs {
      let once = SemanticKey.canonicalIngredientName(input)
      #expect(SemanticKey.canonicalIngredientName(once) == once, "\(input)")
    }
  }

  @Test func titleKeyIsIdempotent() {
    for input in Self.inputs {
      let once = SemanticKey.titleKey(input)
      #expect(SemanticKey.titleKey(once) == once, "\(input)")
    }
  }

  @Test func singularIsIdempotentOnEveryNormalizedWord() {
    for input in Self.inputs {
      for word in SemanticKey.normalizedName(input).split(separator: " ").map(String.init) {
        let once = Inflection.singular(word)
        #expect(Inflection.singular(once) == once, "\(word)")
      }
    }
  }

  @Test func parsingTheCanonicalNameGivesItBack() {
    for input in Self.inputs {
      let canonical = SemanticKey.canonicalIngredientName(input)
      let reparsed = IngredientLine.parse(canonical).canonicalName
      // Reparsing can only strip note words or a leading number; it must never
      // produce a different key for a plain canonical name.
      if IngredientLine.parse(canonical).name == canonical {
        #expect(reparsed == canonical, "\(input)")
      }
    }
  }
}
