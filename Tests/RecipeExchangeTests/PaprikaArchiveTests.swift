import Foundation
import Model
import Normalization
import Testing
import ZIPFoundation

@testable import RecipeExchange

/// Reading Paprika archives: what maps where, and what is refused.
@Suite struct PaprikaArchiveTests {
  static func recipes(_ archive: PaprikaArchive) -> [ImportedRecipe] {
    archive.entries.compactMap { if case .recipe(let recipe) = $0.content { recipe } else { nil } }
  }

  @Test func aPaprikaRecipeMapsToItsFields() throws {
    let archive = try PaprikaArchive.read(PaprikaSupport.archive([PaprikaSupport.shakshuka]))
    let recipe = try #require(Self.recipes(archive).first)
    #expect(recipe.name == "Weeknight Shakshuka")
    #expect(recipe.ingredients == ["2 tbsp olive oil", "1 onion, diced", "6 eggs"])
    #expect(recipe.instructions == ["Warm the oil.", "Soften the onion.", "## For the eggs", "Crack in the eggs."])
    #expect(recipe.description == "Eggs in spiced tomato.")
    #expect(recipe.yield == "4 servings")
    #expect([recipe.prepTime, recipe.cookTime, recipe.totalTime] == ["PT10M", "PT1H20M", "PT1H30M"])
    #expect(recipe.tags == ["Breakfast", "Vegetarian"])
    #expect(recipe.author == "Small Kitchen")
    #expect(recipe.url == "https://small-kitchen.example/shakshuka")
    #expect(recipe.notes == "Use ripe tomatoes.\n\nNutrition:\n210 kcal")
    #expect(recipe.isFavorite)
    #expect(recipe.notKept == ["photo", "rating 4 of 5", "difficulty 'Easy'"])
    #expect(recipe.warnings.isEmpty)
  }

  @Test func aTimeThatIsNotADurationIsAWarning() throws {
    var object = PaprikaSupport.shakshuka
    object["prep_time"] = "overnight"
    object["servings"] = 6
    let recipe = try #require(Self.recipes(try PaprikaArchive.read(PaprikaSupport.archive([object]))).first)
    #expect(recipe.prepTime == nil)
    #expect(recipe.yield == "6")
    #expect(recipe.warnings == ["prep time 'overnight' is not a duration Forager reads; not kept"])
  }

  @Test func whatPaprikaWriterWritesReadsBackTheSame() throws {
    let recipe = ExportTests.recipe
    let data = try PaprikaWriter.archive([.init(recipe, categories: ["Breakfast"])])
    let read = try #require(Self.recipes(try PaprikaArchive.read(data)).first)
    #expect(read.name == recipe.displayName)
    #expect(read.description == recipe.recipeDescription)
    #expect(read.ingredients == recipe.recipeIngredient)
    #expect(read.instructions == recipe.recipeInstructions)
    #expect(read.yield == recipe.recipeYield)
    #expect([read.prepTime, read.cookTime, read.totalTime] == [recipe.prepTime, recipe.cookTime, recipe.totalTime])
    #expect(read.author == recipe.author)
    #expect(read.url == recipe.sourceURL)
    #expect(read.tags == ["Breakfast"])
    #expect(read.notKept.isEmpty)
    #expect(try PaprikaWriter.archive([.init(recipe, categories: ["Breakfast"])]) == data, "the same recipes give the same bytes")
  }

  @Test func theWriterNamesEntriesSafelyAndDistinctly() throws {
    var second = ExportTests.recipe
    second.displayName = "Weeknight/Shakshuka"
    var third = ExportTests.recipe
    third.displayName = "weeknight-shakshuka"
    let archive = try Archive(data: PaprikaWriter.archive([.init(ExportTests.recipe), .init(second), .init(third)]), accessMode: .read)
    #expect(
      archive.map(\.path) == [
        "Weeknight Shakshuka.paprikarecipe", "Weeknight-Shakshuka.paprikarecipe", "weeknight-shakshuka 2.paprikarecipe",
      ])
  }

  @Test(arguments: [("PT1H20M", "1 hr 20 mins"), ("PT45M", "45 mins"), ("PT1H", "1 hr"), ("PT26H1M", "26 hrs 1 min"), ("PT30S", "30 secs")])
  func timesAreWrittenAsPaprikaShowsThemAndReadBack(iso: String, text: String) {
    #expect(PaprikaWriter.spoken(iso) == text)
    #expect(Durations.iso8601(text) == iso)
  }

  @Test func gzipMembersRoundTripAndAreChecked() throws {
    let text = Data(String(repeating: "Crack in the eggs. ", count: 500).utf8)
    var member = try Gzip.compress(text)
    #expect(try Gzip.decompress(member, maximum: text.count) == text)
    #expect(throws: Gzip.Failure.tooLarge(maximum: 100)) { try Gzip.decompress(member, maximum: 100) }
    member[member.count - 5] ^= 0xff  // the stored CRC
    #expect(throws: Gzip.Failure.checksum) { try Gzip.decompress(member, maximum: text.count) }
    #expect(throws: Gzip.Failure.notGzip) { try Gzip.decompress(text, maximum: text.count) }
    let truncated = try Gzip.compress(text).prefix(40)
    #expect(throws: (any Error).self) { try Gzip.decompress(Data(truncated), maximum: text.count) }
  }

  @Test func gzipHeadersWithANameExtraFieldAndCommentAreRead() throws {
    let text = Data("{\"name\":\"Soup\"}".utf8)
    var member = try Gzip.compress(text)
    member[3] = 4 | 8 | 16  // FEXTRA, FNAME, FCOMMENT, as gzip(1) and other apps may write
    member.insert(contentsOf: [3, 0, 1, 2, 3] + Array("Soup.json".utf8) + [0] + Array("made elsewhere".utf8) + [0], at: 10)
    #expect(try Gzip.decompress(member, maximum: 1024) == text)
  }

  // MARK: Hostile archives

  @Test func aFileThatIsNotAZipIsRefusedClearly() {
    #expect(throws: PaprikaArchiveError.notZip) { try PaprikaArchive.read(Data("<html>not an archive</html>".utf8)) }
    #expect(PaprikaArchiveError.notZip.description == "not a Paprika archive (.paprikarecipes): it is not a zip file")
  }

  @Test func aCorruptEntryGivesItsReasonAndTheOthersAreRead() throws {
    let good = try Gzip.compress(PaprikaSupport.json(PaprikaSupport.shakshuka))
    var damaged = good
    damaged[20] ^= 0xff
    let data = try PaprikaSupport.zip([
      ("Good.paprikarecipe", good), ("Damaged.paprikarecipe", damaged), ("Plain.paprikarecipe", Data("{\"name\":\"x\"}".utf8)),
      ("Nameless.paprikarecipe", try Gzip.compress(Data("{\"ingredients\":\"1 egg\"}".utf8))),
      ("Junk.paprikarecipe", try Gzip.compress(Data("not json".utf8))),
    ])
    let entries = try PaprikaArchive.read(data).entries
    #expect(Self.recipes(PaprikaArchive(entries: entries)).map(\.name) == ["Weeknight Shakshuka"])
    let reasons = entries.compactMap { if case .failed(let reason) = $0.content { reason } else { nil } }
    #expect(
      reasons == [
        "the entry's gzip data is damaged (bad data or checksum)", "the entry is not gzip-compressed, as Paprika writes every recipe",
        "not a Paprika recipe: it has no name", "not a Paprika recipe: its JSON does not parse",
      ])
  }

  @Test func pathsThatLeaveTheArchiveAndOtherFilesAreIgnored() throws {
    let member = try Gzip.compress(PaprikaSupport.json(PaprikaSupport.shakshuka))
    let data = try PaprikaSupport.zip([
      ("../../etc/evil.paprikarecipe", member), ("/abs.paprikarecipe", member), ("notes.txt", Data("hi".utf8)),
      ("ok/Shakshuka.paprikarecipe", member),
    ])
    let entries = try PaprikaArchive.read(data).entries
    #expect(
      entries.map(\.content).map { if case .ignored(let reason) = $0 { reason } else { "read" } } == [
        "ignored: its path leaves the archive", "ignored: its path leaves the archive", "ignored: not a .paprikarecipe entry", "read",
      ])
  }

  @Test func aGzipBombStopsAtTheEntryLimit() throws {
    let bomb = try Gzip.compress(Data(count: 8 * 1024 * 1024))
    #expect(bomb.count < 64 * 1024)
    let data = try PaprikaSupport.zip([("Bomb.paprikarecipe", bomb)])
    let entries = try PaprikaArchive.read(data, limits: .init(maximumEntryBytes: 1024 * 1024)).entries
    #expect(entries.map(\.content) == [.failed("the entry is larger than 1 MB once decompressed; not read")])
  }

  @Test func aZipBombStopsAtTheEntryLimit() throws {
    let data = try PaprikaSupport.zip([("Bomb.paprikarecipe", Data(count: 8 * 1024 * 1024))], compression: .deflate)
    #expect(data.count < 64 * 1024)
    let entries = try PaprikaArchive.read(data, limits: .init(maximumEntryBytes: 1024 * 1024)).entries
    #expect(entries.map(\.content) == [.failed("the entry is larger than 1 MB once decompressed; not read")])
  }

  @Test func manyEntriesOverTheTotalLimitRefuseTheArchive() throws {
    let member = try Gzip.compress(Data(count: 600 * 1024))
    let data = try PaprikaSupport.zip((0..<4).map { ("R\($0).paprikarecipe", member) })
    #expect(throws: PaprikaArchiveError.totalTooLarge(maximum: 1024 * 1024)) {
      try PaprikaArchive.read(data, limits: .init(maximumEntryBytes: 1024 * 1024, maximumTotalBytes: 1024 * 1024))
    }
  }

  @Test func tooManyEntriesRefuseTheArchive() throws {
    let data = try PaprikaSupport.zip((0..<6).map { ("R\($0).paprikarecipe", Data()) })
    #expect(throws: PaprikaArchiveError.tooManyEntries(maximum: 5)) { try PaprikaArchive.read(data, limits: .init(maximumEntries: 5)) }
  }

  @Test func anArchiveLargerThanTheLimitIsNotOpened() throws {
    let data = try PaprikaSupport.archive([PaprikaSupport.shakshuka])
    #expect(throws: PaprikaArchiveError.tooLarge(bytes: data.count, maximum: 100)) {
      try PaprikaArchive.read(data, limits: .init(maximumArchiveBytes: 100))
    }
  }

  @Test func anArchiveWithoutRecipeEntriesSaysSo() throws {
    let data = try PaprikaSupport.zip([("readme.txt", Data("hello".utf8))])
    #expect(throws: PaprikaArchiveError.noRecipes) { try PaprikaArchive.read(data) }
  }

  /// The first bytes of an AppleDouble file (its magic number and version), as macOS
  /// writes one beside each file it zips.
  static let appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8) + [0, 2])

  @Test func whatMacOSAddsToAZipIsPassedOver() throws {
    let member = try Gzip.compress(PaprikaSupport.json(PaprikaSupport.shakshuka))
    let data = try PaprikaSupport.zip([
      ("Export/Weeknight Shakshuka.paprikarecipe", member),
      ("__MACOSX/Export/._Weeknight Shakshuka.paprikarecipe", Self.appleDouble),
      ("__MACOSX/._Export", Self.appleDouble),
      ("Export/._Weeknight Shakshuka.paprikarecipe", Self.appleDouble),
      ("Export/.DS_Store", Data("Bud1".utf8)),
    ])
    let entries = try PaprikaArchive.read(data).entries
    #expect(entries.map(\.path) == ["Export/Weeknight Shakshuka.paprikarecipe"])
    #expect(Self.recipes(try PaprikaArchive.read(data)).map(\.name) == ["Weeknight Shakshuka"])
  }

  @Test func anArchiveOfOnlyMacOSMetadataHoldsNoRecipes() throws {
    let data = try PaprikaSupport.zip([("__MACOSX/._A.paprikarecipe", Self.appleDouble), ("._B.paprikarecipe", Self.appleDouble)])
    #expect(throws: PaprikaArchiveError.noRecipes) { try PaprikaArchive.read(data) }
  }
}
