import Foundation
import Model
import Scripting
import TestSupport
import Testing
import ZIPFoundation

@testable import CommandLanguage
@testable import RecipeExchange

/// recipe import of Paprika archives and recipe export --paprika, through the command language.
@Suite struct PaprikaCommandTests {
  /// A recipe as Paprika 3 exports it.
  nonisolated(unsafe) static let shakshuka: [String: Any] = [
    "uid": "6D0C3E7C-1E59-4D5E-8B8A-6A2E0C7E5F10", "name": "Weeknight Shakshuka",
    "ingredients": "2 tbsp olive oil\n1 onion, diced\n6 eggs", "directions": "Warm the oil.\nSoften the onion.\nCrack in the eggs.",
    "servings": "4", "prep_time": "10 mins", "cook_time": "1 hr 20 mins", "categories": ["Breakfast", "Vegetarian"],
    "source_url": "https://small-kitchen.example/shakshuka", "notes": "Use ripe tomatoes.", "rating": 5, "photo_data": "/9j/4AAQ",
    "on_favorites": 1,
  ]

  static func member(_ object: [String: Any]) throws -> Data { try Gzip.compress(JSONSerialization.data(withJSONObject: object)) }

  /// Writes a zip of the entries to a new folder and returns its quoted path.
  static func archive(_ entries: [(String, Data)], name: String = "Export.paprikarecipes") throws -> (path: String, quoted: String) {
    let archive = try Archive(accessMode: .create)
    for (path, data) in entries {
      try archive.addEntry(
        with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: Date(timeIntervalSince1970: 0),
        provider: { position, size in data.subdata(in: Int(position)..<(Int(position) + size)) })
    }
    let url = try RecipeImportCommandTests.temporaryFolder().appendingPathComponent(name)
    try (archive.data ?? Data()).write(to: url)
    return (url.path, "\"\(url.path)\"")
  }

  @Test func anArchiveImportsWithTagsNotesFavouriteAndWhatIsNotKept() throws {
    let harness = try Harness()
    let file = try Self.archive([("Weeknight Shakshuka.paprikarecipe", Self.member(Self.shakshuka))])
    let json = try harness.json("recipe import \(file.quoted)")
    let rows = json.rows("files")
    #expect(rows.count == 1)
    #expect(rows.first?.string("file") == "\(file.path) [Weeknight Shakshuka.paprikarecipe]")
    #expect(rows.first?.string("result") == "imported")
    #expect(rows.first?.string("detail") == "3 ingredient lines; photo not kept; rating 5 of 5 not kept")
    let recipe = try #require(try harness.json("recipe show Weeknight Shakshuka")["recipe"])
    #expect(recipe["tags"] == .array(["Breakfast", "Vegetarian"]))
    #expect(recipe.string("notes") == "Use ripe tomatoes.")
    #expect(recipe["favorite"] == .bool(true))
    #expect(recipe.string("cookTime") == "PT1H20M")
    #expect(recipe.string("yield") == "4")
    #expect(RecipeImportCommandTests.messages(json).contains("1 file, 1 recipe imported, 0 failed"))
  }

  @Test func aDryRunOfAnArchiveChangesNothing() throws {
    let harness = try Harness()
    let file = try Self.archive([("A.paprikarecipe", Self.member(Self.shakshuka))])
    let before = try harness.counts()
    let json = try harness.json("recipe import \(file.quoted) --dry-run")
    #expect(json.rows("files").first?.string("result") == "would import")
    #expect(try harness.counts() == before)
  }

  @Test func aDamagedEntryFailsAloneAndAtomicKeepsNothing() throws {
    var damaged = try Self.member(Self.shakshuka)
    damaged[24] ^= 0xff
    var other = Self.shakshuka
    other["name"] = "Green Shakshuka"
    let file = try Self.archive([
      ("Bad.paprikarecipe", damaged), ("Green.paprikarecipe", try Self.member(other)), ("../escape.paprikarecipe", Data()),
    ])
    let harness = try Harness()
    let json = try harness.json("recipe import \(file.quoted)")
    #expect(RecipeImportCommandTests.results(json) == ["-: failed", "Green Shakshuka: imported"])
    #expect(json.rows("files").first?.string("detail") == "the entry's gzip data is damaged (bad data or checksum)")
    #expect(RecipeImportCommandTests.messages(json).contains("[../escape.paprikarecipe]: ignored: its path leaves the archive"))
    #expect(try harness.count(.recipe) == 1)

    let atomic = try Harness()
    try atomic.expectFailure("recipe import \(file.quoted) --atomic", .failed, mentions: ["nothing was imported (--atomic)", "damaged"])
    #expect(try atomic.count(.recipe) == 0)
  }

  @Test func aFileThatIsNotAZipIsRefusedClearly() throws {
    let url = try RecipeImportCommandTests.temporaryFolder().appendingPathComponent("Fake.paprikarecipes")
    try Data("<html>not an archive</html>".utf8).write(to: url)
    try Harness().expectFailure(
      "recipe import \"\(url.path)\"", .failed, mentions: ["not a Paprika archive (.paprikarecipes): it is not a zip file"])
  }

  @Test func progressNamesEachEntryOfAnArchive() throws {
    var other = Self.shakshuka
    other["name"] = "Green Shakshuka"
    let file = try Self.archive([("A.paprikarecipe", Self.member(Self.shakshuka)), ("B.paprikarecipe", Self.member(other))])
    let harness = try Harness()
    final class Calls { var seen: [String] = [] }
    let calls = Calls()
    harness.session.fileProgress = { done, total, name in calls.seen.append("\(done)/\(total) \(name)") }
    try harness.run("recipe import \(file.quoted)")
    #expect(calls.seen == ["0/1 \(file.path)", "0/2 A.paprikarecipe", "1/2 B.paprikarecipe", "1/1 "])
  }

  @Test func aFolderImportFindsArchives() throws {
    let file = try Self.archive([("A.paprikarecipe", Self.member(Self.shakshuka))])
    let folder = (file.path as NSString).deletingLastPathComponent
    let json = try Harness().json("recipe import \"\(folder)\"")
    #expect(RecipeImportCommandTests.results(json) == ["Weeknight Shakshuka: imported"])
  }

  @Test func anArchiveZippedOnAMacImportsWithoutFailures() throws {
    let fork = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00])
    let file = try Self.archive([
      ("Weeknight Shakshuka.paprikarecipe", Self.member(Self.shakshuka)),
      ("__MACOSX/._Weeknight Shakshuka.paprikarecipe", fork), ("._Weeknight Shakshuka.paprikarecipe", fork),
    ])
    let json = try Harness().json("recipe import \(file.quoted)")
    #expect(RecipeImportCommandTests.results(json) == ["Weeknight Shakshuka: imported"])
    #expect(RecipeImportCommandTests.messages(json).contains("1 file, 1 recipe imported, 0 failed"))
  }

  @Test func aFolderUnzippedOnAMacImportsNoResourceForks() throws {
    let folder = try RecipeImportCommandTests.temporaryFolder()
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
    try Self.member(Self.shakshuka).write(to: folder.appendingPathComponent("__MACOSX/Shakshuka.paprikarecipes"))
    try Data([0x00, 0x05, 0x16, 0x07]).write(to: folder.appendingPathComponent("._Shakshuka.paprikarecipes"))
    let file = try Self.archive([("Weeknight Shakshuka.paprikarecipe", Self.member(Self.shakshuka))], name: "Shakshuka.paprikarecipes")
    try manager.moveItem(atPath: file.path, toPath: folder.appendingPathComponent("Shakshuka.paprikarecipes").path)
    let json = try Harness().json("recipe import \"\(folder.path)\"")
    #expect(RecipeImportCommandTests.results(json) == ["Weeknight Shakshuka: imported"])
  }

  /// What `recipe show` says of a recipe, without what differs between stores (ids, dates).
  static func shown(_ harness: Harness, _ name: String) throws -> JSONValue {
    let shown = try harness.json("recipe show \"\(name)\"")
    var recipe = try #require(shown["recipe"])
    if case .object(let members) = recipe {
      recipe = .object(members.filter { !["id", "created", "updated", "lastUsed", "usageCount"].contains($0.key) })
    }
    let lines = shown.rows("ingredients").map { row -> JSONValue in
      guard case .object(let members) = row else { return row }
      return .object(members.filter { !$0.key.lowercased().contains("id") })
    }
    return ["recipe": recipe, "ingredients": .array(lines)]
  }

  @Test func anExportImportsIntoAnEmptyStoreAsTheSameRecipes() throws {
    let source = try Harness()
    try source.run(
      ###"recipe add "Egg Fried Rice" --ingredient "3 cups cooked rice" --ingredient "2 eggs" --step "Fry the eggs." --step "## Rice" --step "Add the rice." --yield "2 servings" --prep 10m --cook "1h20m" --tag Dinner --tag Quick --notes "Day-old rice." --url https://example.com/rice --author "Ada Baker" --description "Fast." --favorite"###
    )
    try source.run(#"recipe add "Plain Toast" --ingredient "1 slice bread""#)
    let file = try RecipeImportCommandTests.temporaryFolder().appendingPathComponent("All.paprikarecipes")
    let exported = try source.json("recipe export --all --paprika \"\(file.path)\"")
    #expect(exported["export"]?.string("path") == file.path)
    #expect(exported["export"]?["recipes"] == .int(2))

    let target = try Harness()
    let json = try target.json("recipe import \"\(file.path)\"")
    #expect(RecipeImportCommandTests.results(json).sorted() == ["Egg Fried Rice: imported", "Plain Toast: imported"])
    #expect(RecipeImportCommandTests.messages(json).contains("0 failed"))
    for name in ["Egg Fried Rice", "Plain Toast"] {
      #expect(try Self.shown(target, name) == Self.shown(source, name), "\(name)")
    }
  }

  @Test func exportRefusesPaprikaWithAnotherOutput() throws {
    let harness = try Harness()
    try harness.run(#"recipe add "Plain Toast" --ingredient "1 slice bread""#)
    try harness.expectFailure(
      "recipe export --all --paprika a.paprikarecipes --output b.json", .usage, mentions: ["give either --paprika or --output, not both"])
  }
}
