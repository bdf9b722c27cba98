import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// Whatever form a text arrives in, a store holds it in NFC: the repositories' writes and
/// a kitchen archive's import pass through the stores' one check of every value they
/// write, which puts texts into NFC first.
@Suite("Canonical text in stores")
struct CanonicalTextStoreTests {
  /// The texts of a store's rows that are not in NFC, named.
  static func nonCanonical(_ store: any Store) throws -> [String] {
    try store.dump().flatMap { record in
      record.fields.flatMap { name, value -> [String] in
        value.canonicalized == nil ? [] : ["\(record.kind.rawValue) \(record.displayText).\(name)"]
      } + (ValueRules.isCanonical(record.meta.ownerID) ? [] : ["\(record.kind.rawValue) \(record.displayText).@ownerID"])
    }
  }

  @Test(arguments: TestBackend.allCases)
  func repositoriesStoreDecomposedTextsComposed(_ backend: TestBackend) throws {
    let library = try makeLibrary(backend)
    let fraiche = "cre\u{300}me frai\u{302}che"
    _ = try library.categories.getOrCreate("Pa\u{302}tisserie")
    _ = try library.ingredients.getOrCreate(fraiche, category: "Pa\u{302}tisserie", aliases: ["cre\u{300}me e\u{301}paisse"])
    _ = try library.recipes.create(
      RecipeDraft(
        name: "Cre\u{300}me bru\u{302}le\u{301}e", ingredients: ["200 ml \(fraiche)", "3 jaunes d'\u{153}uf"],
        instructions: ["Me\u{301}langer.", "Cuire au four a\u{300} 150 \u{B0}C."], description: "\u{1100}\u{1161}\u{11A8}",
        keywords: ["dessert", "franc\u{327}ais"], tags: ["Fe\u{302}te"]))
    #expect(try Self.nonCanonical(library.store) == [])
    let recipe = try #require(try library.recipes.find("Cr\u{E8}me br\u{FB}l\u{E9}e"))
    #expect(Array(recipe.displayName.utf8) == Array("Cr\u{E8}me br\u{FB}l\u{E9}e".utf8))
    #expect(Array((recipe.recipeDescription ?? "").utf8) == Array("\u{AC01}".utf8))
    let template = try #require(try library.ingredients.find("creme fraiche"))
    #expect(Array(template.displayName.utf8) == Array("cr\u{E8}me fra\u{EE}che".utf8))
  }

  /// A kitchen archive whose every text was decomposed (as a tool on another system may
  /// write it) imports as the archive it came from: the same rows, byte for byte.
  @Test(arguments: TestBackend.allCases)
  func aDecomposedKitchenArchiveImportsComposed(_ backend: TestBackend) throws {
    let source = try KitchenArchiveTests.richKitchen(backend)
    _ = try source.categories.getOrCreate("P\u{E2}tisserie")
    _ = try source.recipes.create(RecipeDraft(name: "Cr\u{E8}me br\u{FB}l\u{E9}e", ingredients: ["1 cup cr\u{E8}me fra\u{EE}che"]))
    let exported = try KitchenArchiveTests.exported(source)
    let decomposed = Data(String(decoding: exported, as: UTF8.self).decomposedStringWithCanonicalMapping.utf8)
    #expect(decomposed != exported)
    let restored = try KitchenArchiveTests.emptyKitchen(backend)
    _ = try restored.importKitchen(try KitchenArchive.decode(decomposed))
    #expect(try Self.nonCanonical(restored.store) == [])
    #expect(try KitchenArchiveTests.exported(restored) == exported)
  }
}
