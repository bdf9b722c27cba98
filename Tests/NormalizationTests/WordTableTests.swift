import Normalization
import Testing

/// The word tables in `Internal/` are data; these tests keep them consistent with the rules.
@Suite("Word tables")
struct WordTableTests {
  @Test func everyIrregularSingularIsAFixedPoint() {
    for singular in IrregularPlurals.table.values {
      #expect(Inflection.singular(singular) == singular, "\(singular)")
    }
  }

  @Test func everyInvariantNounIsUnchanged() {
    for word in InvariantNouns.words {
      #expect(Inflection.singular(word) == word, "\(word)")
    }
  }

  @Test func everyIeOeCheSingularRoundTripsThroughItsPlural() {
    for singular in IePluralNouns.singulars.union(OePluralNouns.singulars).union(ChePluralNouns.singulars) {
      #expect(Inflection.singular(singular + "s") == singular, "\(singular)")
    }
  }

  @Test func everyUnitSpellingParsesToItsCanonicalUnit() {
    for entry in UnitTable.entries {
      for spelling in entry.spellings {
        let parsed = IngredientLine.parse("2 \(spelling) water")
        #expect(parsed.unit == entry.canonical, "\(spelling)")
        #expect(parsed.name == "water", "\(spelling)")
      }
    }
  }

  @Test func unitSpellingsAreUnique() {
    let spellings = UnitTable.entries.flatMap(\.spellings)
    #expect(Set(spellings).count == spellings.count)
  }

  @Test func everyPreparationWordLeadingANameMovesToNotes() {
    for word in NoteWords.preparation.union(NoteWords.size) {
      let parsed = IngredientLine.parse("1 cup \(word) carrots")
      #expect(parsed.name == "carrots", "\(word)")
      #expect(parsed.notes == word, "\(word)")
    }
  }

  @Test func everyTrailingPhraseMovesToNotes() {
    for phrase in TrailingNotePhrases.phrases {
      let text = phrase.joined(separator: " ")
      let parsed = IngredientLine.parse("salt \(text)")
      #expect(parsed.name == "salt", "\(text)")
      #expect(parsed.notes == text, "\(text)")
    }
  }

  @Test func everyMeasureWordHeadsItsPhrase() {
    for (word, singular) in MeasureWords.table {
      #expect(Inflection.singularizeHeadNoun("\(word) onions") == "\(singular) onions", "\(word)")
    }
  }
}
