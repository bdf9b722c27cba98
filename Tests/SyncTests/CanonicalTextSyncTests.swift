import Foundation
import GRDB
import Model
import Persistence
import PersistenceSQLite
import Repositories
import TestSupport
import Testing

@testable import Sync

/// Every device holds one form of each text, NFC, whatever form its writer sent: a device
/// writes "Crème brûlée" decomposed, another precomposed, a device of an older version
/// pushes decomposed texts straight into the cloud, and every device ends with the same
/// bytes in its rows and states, checked byte for byte.
@Suite("Canonical text in sync")
struct CanonicalTextSyncTests {
  static let composed = "Cr\u{E8}me br\u{FB}l\u{E9}e"
  static let decomposed = "Cre\u{300}me bru\u{302}le\u{301}e"
  static let older = "older-device"

  /// Every text a record holds, with where it is.
  static func texts(_ record: Model.Record) -> [(String, String)] {
    var texts = [("@ownerID", record.meta.ownerID)]
    for (name, value) in record.fields {
      switch value {
      case .text(let text): texts.append((name, text))
      case .textList(let list): texts += list.map { (name, $0) }
      default: break
      }
    }
    return texts
  }

  /// The texts of a device's rows and states that are not in NFC.
  static func nonCanonical(_ store: any Store) throws -> [String] {
    var found: [String] = []
    for record in try store.dump() {
      for (field, text) in texts(record) where !ValueRules.isCanonical(text) {
        found.append("row \(record.kind.rawValue) \(record.id.lowercaseText).\(field)")
      }
    }
    for (key, encoded) in try store.syncStates() {
      guard let state = StateCoding.decode(encoded) else {
        found.append("state \(key) does not decode")
        continue
      }
      if !ValueRules.isCanonical(state.ownerID) { found.append("state \(key).@ownerID") }
      for name in state.fieldNames {
        guard let value = state[name]?.value, value.canonicalized != nil else { continue }
        found.append("state \(key).\(name)")
      }
    }
    return found
  }

  @Test(arguments: TestBackend.allCases)
  func decomposedAndComposedTextsEndAsTheSameBytesOnEveryDevice(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"], seed: 11)
    let dessertA = try world["A"].library.categories.getOrCreate(Self.decomposed)
    let dessertB = try world["B"].library.categories.getOrCreate(Self.composed)
    #expect(dessertA.id == dessertB.id)  // one key, so one name-based id
    try world.syncUntilQuiet()
    // A recipe only A writes, decomposed: its registers come from A's rows alone.
    _ = try world["A"].library.recipes.create(
      RecipeDraft(name: Self.decomposed, ingredients: ["1 cup cre\u{300}me frai\u{302}che"], keywords: ["franc\u{327}ais"]))

    // A device of an older version renames the category and creates a template, all in NFD.
    let stamp = Stamp(time: world.clock.now().millisecondsSince1970, counter: 0, replica: Self.older)
    let rename = RecordChange(
      kind: .category, id: dessertA.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "zoe\u{308}",
      sharingScope: .private,
      fields: [
        "displayName": StampedValue(value: .text(Self.decomposed + " a\u{300} la cre\u{300}me"), stamp: stamp),
        "normalizedName": StampedValue(value: .text("creme brulee a la creme"), stamp: stamp),
      ])
    let template = RecordChange(
      kind: .ingredientTemplate, id: UUID(uuidString: "00000000-0000-4000-8000-0000000000c1")!, createdAt: Fixtures.epoch,
      updatedAt: Fixtures.epoch, ownerID: "zoe\u{308}", sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
        "displayName": StampedValue(value: .text("Cre\u{300}me frai\u{302}che"), stamp: stamp),
        "canonicalName": StampedValue(value: .text("creme fraiche"), stamp: stamp),
        "aliases": StampedValue(value: .textList(["cre\u{300}me e\u{301}paisse", "\u{1100}\u{1161}\u{11A8}"]), stamp: stamp),
      ])
    _ = try world.cloud.push(ChangeBatch(id: "\(Self.older):1-2", replica: Self.older, schemaVersion: 5, changes: [rename, template]))
    try world.syncUntilQuiet()
    try world.addDevice("C")  // a new device, from the whole log
    try world.sync("C")

    #expect(try world.invariantViolations() == [])
    let states = try world["A"].store.syncStates()
    // Live rows: a device keeps a tombstone only of a record it showed (A's implicit
    // "creme fraiche" template, merged into the older device's).
    let rows = try world["A"].store.dump().filter(\.meta.isLive)
    for name in ["A", "B", "C"] {
      let store = world[name].store
      #expect(try Self.nonCanonical(store) == [], "device \(name)")
      #expect(try store.syncStates() == states, "device \(name)")  // encoded states: bytes
      #expect(try store.dump().filter(\.meta.isLive) == rows, "device \(name)")  // FieldValue compares bytes
      #expect(try SyncVerifier(store: store).verify().differences == [], "device \(name)")
      let shown = try #require(try world[name].library.categories.find("creme brulee a la creme"))
      #expect(Array(shown.displayName.utf8) == Array("Cr\u{E8}me br\u{FB}l\u{E9}e \u{E0} la cr\u{E8}me".utf8))
      let recipe = try #require(try world[name].library.recipes.find(Self.composed))
      #expect(Array(recipe.displayName.utf8) == Array(Self.composed.utf8))
      #expect(Array(recipe.keywords.joined().utf8) == Array("fran\u{E7}ais".utf8))
      let fraiche = try #require(try world[name].library.ingredients.find("creme fraiche"))
      #expect(Array(fraiche.aliases.joined(separator: "|").utf8) == Array("cr\u{E8}me \u{E9}paisse|\u{AC01}".utf8))
    }
  }

  /// `sync verify` compares byte for byte: a row that differs from the view of the states
  /// only in its Unicode form is a difference, marked so, though the two texts are equal
  /// as Swift strings.
  @Test(arguments: TestBackend.allCases)
  func verifyNamesARowInAnotherUnicodeForm(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A"], seed: 12)
    let dessert = try world["A"].library.categories.getOrCreate(Self.composed)
    try world.sync("A")
    let (view, rows) = try world["A"].store.read { reader in
      (try ReferenceView.read(reader), try ReferenceView.tableRows(reader))
    }
    let key = RecordKey(kind: .category, id: dessert.id)
    #expect(view.differences(from: rows) == [])
    var tampered = rows
    tampered[key]?["displayName"] = .text(Self.decomposed)  // as a build without NFC wrote it
    #expect(tampered[key]?["displayName"].text == rows[key]?["displayName"].text)  // Swift's ==: equal
    let differences = view.differences(from: tampered)
    #expect(differences.map(\.field) == ["displayName"])
    #expect(differences.first?.table == "\"\(Self.decomposed)\" (not NFC)")
    #expect(differences.first?.expected == "\"\(Self.composed)\"")
  }

  /// A store an earlier version wrote holds texts in the form they were typed, in its rows
  /// and its states: its next sync puts both into NFC once, so it holds what every other
  /// device holds, byte for byte.
  @Test func aStoreWrittenBeforeTextsWereKeptInNFCIsConvertedOnItsNextSync() throws {
    let world = try SyncWorld(.sqlite, devices: ["A", "B"], seed: 13)
    let dessert = try world["A"].library.categories.getOrCreate(Self.composed)
    try world.syncUntilQuiet()
    let store = try #require(world["B"].store as? SQLiteStore)
    try DatabaseQueue(path: store.path).write { db in
      try db.execute(
        sql: "UPDATE category SET displayName = ? WHERE id = ?", arguments: [Self.decomposed, dessert.id.uuidString.lowercased()])
    }
    try RefusalsAndLimitsTests.plant(.text(Self.decomposed), in: "displayName", of: RecordKey(kind: .category, id: dessert.id), in: store)
    try store.write(origin: .sync) { try $0.setMetadata(nil, forKey: CanonicalTextConversion.doneKey) }
    let category = "category \(dessert.id.lowercaseText)"
    #expect(try Self.nonCanonical(store) == ["row \(category).displayName", "state category/\(dessert.id.lowercaseText).displayName"])

    let report = try world.sync("B")
    #expect(report.exported == 0)  // nothing of its own to push: the registers keep their stamps
    #expect(try Self.nonCanonical(store) == [])
    #expect(try store.syncStates() == world["A"].store.syncStates())
    #expect(try world.invariantViolations() == [])
    #expect(try store.read { try $0.metadata(forKey: CanonicalTextConversion.doneKey) } == CanonicalTextConversion.done)
  }
}
