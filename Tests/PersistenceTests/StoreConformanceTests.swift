import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// One suite, run against every backend: the backends must behave identically.
@Suite("Store conformance")
struct StoreConformanceTests {
  @Test(arguments: TestBackend.allCases)
  func insertedRecordReadsBackFieldForField(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let category = Fixtures.category("Produce", key: "produce", sortOrder: 3)
    var recipe = Fixtures.recipe("Crème brûlée 🍮", cuisine: "French", ingredients: ["2 ½ cups cream", "sugar"], tags: [UUID(), UUID()])
    recipe["sourcePageNumber"] = .integer(234)
    recipe["lastUsed"] = .timestamp(Date(timeIntervalSinceReferenceDate: 812_345_678.987654))
    recipe["isFavorite"] = .bool(true)
    let ingredient = RecipeIngredient(
      meta: Fixtures.meta(), recipe: recipe.id, template: UUID(), rawLine: "2 ½ cups cream", quantity: 2.5, unit: "cup",
      sortOrder: 0
    ).record
    try store.write { writer in
      try writer.insertRecord(category)
      try writer.insertRecord(recipe)
      try writer.insertRecord(ingredient)
    }
    try store.read { (reader) throws in
      #expect(try reader.record(.category, id: category.id) == category)
      #expect(try reader.record(.recipe, id: recipe.id) == recipe)
      #expect(try reader.record(.recipeIngredient, id: ingredient.id) == ingredient)
      #expect(try reader.record(.category, id: UUID()) == nil)
      #expect(try reader.record(.tag, id: category.id) == nil)
    }
  }

  /// An update given the stored record writes what ``StoreWriter/updateRecord(_:)`` writes:
  /// the row, a change-log entry naming the changed fields, and uniqueness checked.
  @Test(arguments: TestBackend.allCases)
  func updateGivenTheStoredRecordWritesWhatAnUpdateWrites(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let produce = Fixtures.category("Produce", key: "produce", sortOrder: 3)
    let dairy = Fixtures.category("Dairy", key: "dairy")
    try store.write { writer in
      try writer.insertRecord(produce)
      try writer.insertRecord(dairy)
    }
    var changed = produce
    changed["sortOrder"] = .integer(7)
    try store.write { writer in
      let stored = try #require(try writer.record(.category, id: produce.id))
      try writer.updateRecord(changed, replacing: stored)
    }
    var clash = dairy
    clash["displayName"] = .text("produce")
    clash["normalizedName"] = .text("produce")
    do {
      try store.write { writer in try writer.updateRecord(clash, replacing: dairy) }
      Issue.record("an update onto another live record's key was written")
    } catch StoreError.uniqueViolation(_, _, let existing) {
      #expect(existing == produce.id)
    }
    try store.read { (reader) throws in
      #expect(try reader.record(.category, id: produce.id) == changed)
      #expect(try reader.record(.category, id: dairy.id) == dairy)
      let last = try #require(try reader.changes(after: 0, limit: 10).last)
      #expect(last.id == produce.id && last.operation == .update && last.fields == ["sortOrder"])
    }
  }

  @Test(arguments: TestBackend.allCases)
  func semanticKeyLookupFindsLiveRecordsAndTombstonesOnRequest(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let first = Fixtures.category("Produce", key: "produce")
    let other = Fixtures.category("Dairy", key: "dairy")
    try store.write { writer in
      try writer.insertRecord(first)
      try writer.insertRecord(other)
      try writer.tombstoneRecord(.category, id: first.id, at: Fixtures.epoch.addingTimeInterval(5))
    }
    let second = Fixtures.category("PRODUCE", key: "produce")
    try store.write { try $0.insertRecord(second) }
    try store.read { (reader) throws in
      #expect(try reader.records(.category, semanticKey: "produce").map(\.id) == [second.id])
      let all = try reader.records(.category, semanticKey: "produce", includeDeleted: true)
      #expect(Set(all.map(\.id)) == [first.id, second.id])
      #expect(all.map { $0.id.uuidString.lowercased() } == all.map { $0.id.uuidString.lowercased() }.sorted())
      #expect(try reader.records(.category, semanticKey: "nothing").isEmpty)
      #expect(try reader.records(.mealPlan, semanticKey: "produce").isEmpty)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func uniquenessViolationIsATypedErrorAndWritesNothing(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let produce = Fixtures.category("Produce", key: "produce")
    try store.write { try $0.insertRecord(produce) }
    let before = try store.dump()
    let log = try store.changeLog()

    #expect(throws: StoreError.uniqueViolation(kind: .category, semanticKey: "produce", existing: produce.id)) {
      try store.write { writer in
        try writer.insertRecord(Fixtures.category("Bakery", key: "bakery"))
        try writer.insertRecord(Fixtures.category("produce", key: "produce"))
      }
    }
    #expect(try store.dump() == before)
    #expect(try store.changeLog() == log)
  }

  @Test(arguments: TestBackend.allCases)
  func uniquenessViolationCanBeCaughtInsideTheTransaction(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let produce = Fixtures.category("Produce", key: "produce")
    try store.write { try $0.insertRecord(produce) }
    let caught = try store.write { writer -> StoreError? in
      do {
        try writer.insertRecord(Fixtures.category("produce", key: "produce"))
        return nil
      } catch let error as StoreError {
        try writer.insertRecord(Fixtures.category("Dairy", key: "dairy"))
        return error
      }
    }
    #expect(caught == .uniqueViolation(kind: .category, semanticKey: "produce", existing: produce.id))
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == 2)
  }

  @Test(arguments: TestBackend.allCases)
  func renamingOntoALiveKeyIsAUniquenessViolation(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let produce = Fixtures.category("Produce", key: "produce")
    var dairy = Fixtures.category("Dairy", key: "dairy")
    try store.write { writer in
      try writer.insertRecord(produce)
      try writer.insertRecord(dairy)
    }
    dairy["displayName"] = .text("PRODUCE")
    dairy["normalizedName"] = .text("produce")
    #expect(throws: StoreError.uniqueViolation(kind: .category, semanticKey: "produce", existing: produce.id)) {
      try store.write { try $0.updateRecord(dairy) }
    }
    #expect(try store.read { try $0.record(.category, id: dairy.id) }?.semanticKey == "dairy")
  }

  @Test(arguments: TestBackend.allCases)
  func nonUniqueKindsAcceptSharedKeys(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { writer in
      try writer.insertRecord(Fixtures.recipe("Lasagna"))
      try writer.insertRecord(Fixtures.recipe("Lasagna"))
    }
    #expect(try store.read { try $0.records(.recipe, semanticKey: "lasagna") }.count == 2)
  }

  @Test(arguments: TestBackend.allCases)
  func duplicateIDIsATypedError(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let id = UUID()
    try store.write { try $0.insertRecord(Fixtures.category("Produce", id: id)) }
    #expect(throws: StoreError.duplicateID(kind: .category, id: id)) {
      try store.write { try $0.insertRecord(Fixtures.category("Dairy", id: id)) }
    }
    // Same id and same key: the id is reported first on every backend.
    #expect(throws: StoreError.duplicateID(kind: .category, id: id)) {
      try store.write { try $0.insertRecord(Fixtures.category("Produce", id: id)) }
    }
  }

  @Test(arguments: TestBackend.allCases)
  func failedTransactionLeavesNothingBehind(_ backend: TestBackend) throws {
    struct Abort: Error {}
    let store = try backend.makeStore()
    var kept = Fixtures.category("Produce", key: "produce")
    try store.write { writer in
      try writer.insertRecord(kept)
      try writer.setMetadata("1", forKey: "counter")
    }
    let before = try store.dump()
    let log = try store.changeLog()
    #expect(throws: Abort.self) {
      try store.write { writer in
        try writer.insertRecord(Fixtures.category("Dairy"))
        kept["displayName"] = .text("PRODUCE")
        try writer.updateRecord(kept)
        try writer.tombstoneRecord(.category, id: kept.id, at: Fixtures.epoch)
        try writer.setMetadata("2", forKey: "counter")
        try writer.setMetadata("x", forKey: "new")
        throw Abort()
      }
    }
    #expect(try store.dump() == before)
    #expect(try store.changeLog() == log)
    #expect(try store.read { try $0.metadata(forKey: "counter") } == "1")
    #expect(try store.read { try $0.metadata(forKey: "new") } == nil)
    // The store keeps working after a rollback.
    try store.write { try $0.insertRecord(Fixtures.category("Dairy", key: "dairy")) }
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == 2)
  }

  @Test(arguments: TestBackend.allCases)
  func tombstonedRecordsLeaveListingsButStayReadable(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let record = Fixtures.category("Produce", key: "produce")
    let deletedAt = Fixtures.epoch.addingTimeInterval(60)
    try store.write { writer in
      try writer.insertRecord(record)
      try writer.tombstoneRecord(.category, id: record.id, at: deletedAt)
      try writer.tombstoneRecord(.category, id: record.id, at: deletedAt.addingTimeInterval(60))
    }
    try store.read { (reader) throws in
      let stored = try #require(try reader.record(.category, id: record.id))
      #expect(stored.meta.deletedAt == deletedAt)
      #expect(stored.meta.updatedAt == deletedAt)
      #expect(try reader.liveRecord(.category, id: record.id) == nil)
      #expect(try reader.fetch(RecordQuery(.category)).isEmpty)
      #expect(try reader.count(RecordQuery(.category, includeDeleted: true)) == 1)
      let log = try reader.changes(after: 0, limit: 10)
      #expect(log.map(\.operation) == [.insert, .delete])
    }
    #expect(throws: StoreError.notFound(kind: .tag, id: record.id)) {
      try store.write { try $0.tombstoneRecord(.tag, id: record.id, at: deletedAt) }
    }
  }

  @Test(arguments: TestBackend.allCases)
  func changeLogRecordsEveryLoggedWriteWithItsFieldsAndOrigin(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    var record = Fixtures.category("Produce", key: "produce")
    try store.write { try $0.insertRecord(record) }
    record["displayName"] = .text("Fresh produce")
    record["normalizedName"] = .text("fresh produce")
    try store.write(origin: .sync) { try $0.updateRecord(record) }  // a row sync writes: no entry
    record["sortOrder"] = .integer(2)
    try store.write { try $0.updateRecord(record) }
    try store.write { try $0.updateRecord(record) }  // unchanged: no entry
    try store.write(origin: .derived) { try $0.tombstoneRecord(.category, id: record.id, at: Fixtures.epoch) }
    try store.write(origin: .sync) { try $0.insertRecord(Fixtures.category("Dairy", key: "dairy")) }

    let log = try store.changeLog()
    #expect(log.map(\.sequence) == [1, 2, 3])
    #expect(log.map(\.operation) == [.insert, .update, .delete])
    #expect(log.map(\.origin) == [.local, .local, .derived])
    #expect(log.allSatisfy { $0.kind == .category && $0.id == record.id })
    #expect(log[0].fields == ["displayName", "normalizedName", "sortOrder"])
    #expect(log[1].fields == ["sortOrder"])
    #expect(log[2].fields == [])
    #expect(try store.read { try $0.records(.category, ids: [record.id]) }.first?["displayName"] == .text("Fresh produce"))
    try store.read { (reader) throws in
      #expect(try reader.latestChangeSequence() == 3)
      #expect(try reader.changes(after: 1, limit: 1).map(\.sequence) == [2])
      #expect(try reader.changes(after: 3, limit: 10).isEmpty)
      #expect(try reader.changes(after: 0, limit: 0).isEmpty)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func updateOfAMissingRecordIsNotFound(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let record = Fixtures.category("Produce")
    #expect(throws: StoreError.notFound(kind: .category, id: record.id)) {
      try store.write { try $0.updateRecord(record) }
    }
    #expect(try store.changeLog().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func recordsThatBreakTheSchemaAreRejected(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let id = UUID()
    var missing = Fixtures.category("Produce", id: id)
    missing["displayName"] = .null
    var wrongType = Fixtures.category("Produce", id: id)
    wrongType["sortOrder"] = .text("first")
    var unknown = Fixtures.category("Produce", id: id)
    unknown["color"] = .text("red")
    var badEnum = Fixtures.template("basil", id: id)
    badEnum["ingredientKind"] = .text("mineral")
    let badDate = Record(
      kind: .plannedMeal, meta: Fixtures.meta(id),
      fields: ["date": .text("2023-02-29"), "mealType": .text("dinner"), "slotKey": .text("2023-02-29-dinner")]
    )
    let cases: [(Record, String)] = [
      (missing, "displayName"), (wrongType, "sortOrder"), (unknown, "color"), (badEnum, "ingredientKind"),
      (badDate, "date"),
    ]
    for (record, field) in cases {
      do {
        try store.write { try $0.insertRecord(record) }
        Issue.record("\(field): accepted an invalid record")
      } catch let StoreError.invalidRecord(kind, errorID, errorField, _) {
        #expect(kind == record.kind)
        #expect(errorID == id)
        #expect(errorField == field)
      }
    }
    #expect(try store.dump().isEmpty)
    #expect(try store.changeLog().isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func metadataValuesCanBeSetReplacedAndRemoved(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { writer in
      try writer.setMetadata("a", forKey: "replica")
      try writer.setMetadata("b", forKey: "replica")
      try writer.setMetadata("x", forKey: "gone")
      try writer.setMetadata(nil, forKey: "gone")
    }
    try store.read { (reader) throws in
      #expect(try reader.metadata(forKey: "replica") == "b")
      #expect(try reader.metadata(forKey: "gone") == nil)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func metadataKeysAreListedByPrefixInByteOrder(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { writer in
      for key in ["sync.redirect/b", "sync.redirect/a", "sync.redirect0", "sync.redirect", "sync.redirect/é", "sync.stamps/a", "sync"] {
        try writer.setMetadata("v", forKey: key)
      }
      try writer.setMetadata(nil, forKey: "sync.redirect/b")
      // Inside the transaction, the list already reflects its writes.
      #expect(try writer.metadataKeys(withPrefix: "sync.redirect/") == ["sync.redirect/a", "sync.redirect/é"])
    }
    try store.read { (reader) throws in
      #expect(try reader.metadataKeys(withPrefix: "sync.redirect/") == ["sync.redirect/a", "sync.redirect/é"])
      #expect(
        try reader.metadataKeys(withPrefix: "sync.redirect") == ["sync.redirect", "sync.redirect/a", "sync.redirect/é", "sync.redirect0"])
      #expect(try reader.metadataKeys(withPrefix: "nothing/") == [])
      #expect(try reader.metadataKeys(withPrefix: "").count == 6)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func aLimitedPrefixReadGivesTheFirstKeysInByteOrder(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { writer in
      for key in ["k/c", "k/a", "k/é", "k/b", "k", "l/a"] { try writer.setMetadata("", forKey: key) }
    }
    try store.read { (reader) throws in
      #expect(try reader.metadataKeys(withPrefix: "k/", limit: 2) == ["k/a", "k/b"])
      #expect(try reader.metadataKeys(withPrefix: "k/", limit: 10) == ["k/a", "k/b", "k/c", "k/é"])
      #expect(try reader.metadataKeys(withPrefix: "k/", limit: 0) == [])
      #expect(try reader.metadataKeys(withPrefix: "k/", limit: -1) == [], "a negative limit reads nothing")
      #expect(try reader.metadataKeys(withPrefix: "", limit: 1) == ["k"])
    }
  }

  @Test(arguments: TestBackend.allCases)
  func textIsStoredAsWrittenEmptyTextIncluded(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    var recipe = Fixtures.recipe("Pâte à choux ✓", ingredients: ["", "½ cup milk", "a \"quoted\" \\ line"])
    recipe["recipeDescription"] = .text("")
    recipe["recipeInstructions"] = .textList(["Mix.\n\tThen \"bake\" \\ cool.\r\n"])
    // Longer than the buffer SQLite statements' texts are first bound from (4 KiB), so
    // the next statements bind from a grown one.
    recipe["notes"] = .text(String(repeating: "long note ", count: 1_000))
    var short = Fixtures.recipe("Soup", ingredients: ["salt"])
    short["notes"] = .text("n")
    try store.write { writer in
      try writer.insertRecord(recipe)
      try writer.insertRecord(short)
    }
    var shorter = recipe
    shorter["notes"] = .text("short now")
    try store.write { try $0.updateRecord(shorter) }
    try store.write { try $0.setMetadata("", forKey: "empty") }
    let state = String(repeating: "state ✓ ", count: 700)
    try store.write { try $0.setSyncState(state, key: "pâte à choux", kind: .recipe, id: recipe.id) }
    try store.read { (reader) throws in
      #expect(try reader.record(.recipe, id: recipe.id) == shorter)
      #expect(try reader.record(.recipe, id: short.id) == short)
      #expect(try reader.record(.recipe, id: recipe.id)?["recipeDescription"] == .text(""))
      #expect(try reader.metadata(forKey: "empty") == "")
      #expect(try reader.syncStates(.recipe, ids: [recipe.id]) == [recipe.id: state])
      #expect(try reader.syncStateHolders(.recipe, keys: ["pâte à choux"]) == ["pâte à choux": [recipe.id]])
    }
  }

  @Test(arguments: TestBackend.allCases)
  func recordsAndMetadataAreReadForManyIdsAndKeysAtOnce(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let produce = Fixtures.category("Produce"), dairy = Fixtures.category("Dairy"), gone = Fixtures.category("Gone")
    try store.write { writer in
      for record in [produce, dairy, gone] { try writer.insertRecord(record) }
      try writer.tombstoneRecord(.category, id: gone.id, at: Fixtures.epoch)
      try writer.setMetadata("1", forKey: "a")
      try writer.setMetadata("two \"quoted\" \\ value", forKey: "b \"odd\" \\ key\n")
    }
    try store.read { (reader) throws in
      let found = try reader.records(.category, ids: [dairy.id, UUID(), gone.id, produce.id, dairy.id])
      #expect(Set(found.map(\.id)) == [produce.id, dairy.id, gone.id])
      #expect(found.first { $0.id == gone.id }?.meta.isLive == false)
      #expect(try reader.tombstoned(.category, among: [dairy.id, UUID(), gone.id, produce.id, gone.id]) == [gone.id])
      #expect(try reader.tombstoned(.category, among: [dairy.id, produce.id]) == [])
      #expect(try reader.tombstoned(.tag, among: [gone.id]) == [])
      #expect(try reader.tombstoned(.category, among: []) == [])
      #expect(try reader.records(.category, ids: []) == [])
      #expect(try reader.records(.tag, ids: [produce.id]) == [])
      #expect(
        try reader.metadata(forKeys: ["a", "missing", "b \"odd\" \\ key\n"]) == ["a": "1", "b \"odd\" \\ key\n": "two \"quoted\" \\ value"])
      #expect(try reader.metadata(forKeys: []) == [:])
    }
  }

  @Test(arguments: TestBackend.allCases)
  func changesCarryTheStoreClockAndAnOriginSwitchedForPartOfATransaction(_ backend: TestBackend) throws {
    let clock = TickingClock()
    let store = try backend.makeStore(clock: clock.now)
    try store.write(origin: .migration) { writer in
      try writer.insertRecord(Fixtures.category("Produce", key: "produce"))
      try writer.withOrigin(.derived) { try writer.insertRecord(Fixtures.category("Dairy", key: "dairy")) }
      try writer.withOrigin(.sync) { try writer.insertRecord(Fixtures.category("Sweets", key: "sweets")) }
      try writer.insertRecord(Fixtures.category("Bakery", key: "bakery"))
    }
    try store.write { try $0.insertRecord(Fixtures.category("Frozen", key: "frozen")) }
    let log = try store.changeLog()
    // The row written with origin sync is not logged (`ChangeOrigin.isLogged`).
    #expect(log.map(\.origin) == [.migration, .derived, .migration, .local])
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == 5)
    #expect(
      log.map(\.timestamp) == [
        clock.start.addingTimeInterval(0.001), clock.start.addingTimeInterval(0.001), clock.start.addingTimeInterval(0.001),
        clock.start.addingTimeInterval(0.002),
      ])
  }
}

/// The store's own guard on semantic identity: a unique kind's key must be the key of its
/// name, so a write that goes around the repositories cannot plant a duplicate under a
/// made-up key.
@Suite struct SemanticKeyRuleTests {
  @Test(arguments: TestBackend.allCases)
  func aKeyThatIsNotTheKeyOfItsNameIsRefusedAndNothingIsWritten(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    try store.write { try $0.insertRecord(Fixtures.category("Produce", key: "produce")) }
    let before = try store.dump()
    // A second "Produce" under a key no repository would give it.
    let planted = Fixtures.category("Produce", key: "produce2")
    #expect(
      throws: StoreError.invalidRecord(
        kind: .category, id: planted.id, field: "normalizedName",
        reason: "is 'produce2', but its name gives the key 'produce' (keys are derived from names; write through a repository)")
    ) {
      try store.write { try $0.insertRecord(planted) }
    }
    // The same through an update, for each kind whose key comes from its name.
    var renamed = Fixtures.category("Dairy", key: "dairy")
    try store.write { try $0.insertRecord(renamed) }
    renamed["displayName"] = .text("Produce")
    #expect(throws: StoreError.self) { try store.write { try $0.updateRecord(renamed) } }
    var template = Fixtures.template("tomato", aliases: [], category: nil)
    template["canonicalName"] = .text("tomatoes")
    #expect(throws: StoreError.self) { try store.write { try $0.insertRecord(template) } }
    #expect(try store.dump().count == before.count + 1)
  }

  @Test(arguments: TestBackend.allCases)
  func recordsArrivingBySyncAreNotHeldToThisBuildsKeyRule(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    // A device on another build keyed "Crème fraîche" differently: its record still lands.
    let other = Fixtures.category("Crème fraîche", key: "creme fraiche (v0)")
    try store.write(origin: .sync) { try $0.insertRecord(other) }
    #expect(try store.read { try $0.record(.category, id: other.id) }?.semanticKey == "creme fraiche (v0)")
  }

  @Test func everyUniqueKindDerivesItsKeyFromItsName() throws {
    let meta = Fixtures.meta()
    let date = try #require(CivilDate(year: 2024, month: 12, day: 21))
    let samples: [(Record, String)] = [
      (Category(meta: meta, displayName: " Fresh  PRODUCE ", normalizedName: "").record, "fresh produce"),
      (Tag(meta: meta, displayName: "Quick & Easy", normalizedName: "").record, "quick & easy"),
      (IngredientTemplate(meta: meta, displayName: "Tomatoes", canonicalName: "").record, "tomato"),
      (Book(meta: meta, title: "Salt, Fat, Acid, Heat", author: "Samin Nosrat", bookKey: "").record, "salt fat acid heat|samin nosrat"),
      (PlannedMeal(meta: meta, date: date, mealType: .dinner, slotKey: "", recipe: nil).record, "2024-12-21-dinner"),
      (WeeklyList(meta: meta, displayName: " Weekly  SHOP", weekIdentifier: "2024-W50", listKey: "").record, "2024-W50|weekly shop"),
      (GroceryStore(meta: meta, displayName: " Trader  JOE'S ", normalizedName: "").record, "trader joe's"),
    ]
    #expect(Set(samples.map(\.0.kind)) == Set(EntityKind.allCases.filter { $0.schema.identity.isUnique }))
    for (record, key) in samples {
      #expect(record.keyOfItsName == key, "\(record.kind)")
      #expect(throws: StoreError.self, "\(record.kind)") { try record.validateSemanticKey() }
    }
  }
}
