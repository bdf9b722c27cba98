import Foundation
import Model
import Persistence
import PersistenceSQLite
import TestSupport
import Testing

@Suite("SQLite file")
struct SQLiteFileTests {
  @Test func reopeningAFileReturnsExactlyWhatWasCommitted() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    let expected: [Record]
    let expectedLog: [Change]
    do {
      let store = try SQLiteStore(path: path)
      var produce = Fixtures.category("Produce", key: "produce")
      try store.write { writer in
        try writer.insertRecord(produce)
        try writer.insertRecord(Fixtures.recipe("Pâte à choux ✓", ingredients: ["½ cup milk"], tags: [UUID()]))
        try writer.insertRecord(Fixtures.template("tomato", aliases: ["tomatoes", "roma"], category: produce.id))
        try writer.setMetadata("replica-a", forKey: "replicaID")
      }
      produce["displayName"] = .text("Fruit & Veg")
      produce["normalizedName"] = .text("fruit & veg")
      try store.write { try $0.updateRecord(produce) }
      struct Abort: Error {}
      _ = try? store.write { writer in
        try writer.insertRecord(Fixtures.category("Never"))
        throw Abort()
      }
      try store.write { try $0.tombstoneRecord(.category, id: produce.id, at: Fixtures.epoch.addingTimeInterval(1)) }
      expected = try store.dump()
      expectedLog = try store.changeLog()
    }
    let reopened = try SQLiteStore(path: path)
    #expect(try reopened.dump() == expected)
    #expect(try reopened.changeLog() == expectedLog)
    #expect(try reopened.read { try $0.metadata(forKey: "replicaID") } == "replica-a")
    #expect(expected.count == 3)
  }

  @Test func theSchemaVersionIsRecordedInTheFile() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("v.sqlite").path
    _ = try SQLiteStore(path: path)
    #expect(try SQLiteInspector.userVersion(path) == SQLiteStore.schemaVersion)
    #expect(try SQLiteInspector.journalMode(path) == "wal")
    let indexes = try SQLiteInspector.indexes(path)
    #expect(indexes.contains("category_unique_live_key"))
    #expect(indexes.contains("plannedMeal_unique_live_key"))
    #expect(indexes.contains("recipe_key"))
    #expect(!indexes.contains("recipe_unique_live_key"))
  }

  /// A unique kind's key is indexed once per row: live rows in the unique index, tombstones
  /// in an index of their own. A lookup that includes tombstones reads both indexes, and a
  /// file that indexed the key over all rows has that index replaced when it is opened.
  @Test func aUniqueKindsKeyIsIndexedOncePerRowAndOldFilesAreConverted() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("k.sqlite").path
    let (produce, oldProduce, dairy) = (
      Fixtures.category("Produce", key: "produce"), Fixtures.category("Produce", key: "produce"), Fixtures.category("Dairy")
    )
    do {
      let store = try SQLiteStore(path: path)
      try store.write { writer in
        try writer.insertRecord(oldProduce)
        try writer.tombstoneRecord(.category, id: oldProduce.id, at: Fixtures.epoch)
        try writer.insertRecord(produce)
        try writer.insertRecord(dairy)
      }
    }
    var indexes = try SQLiteInspector.indexes(path)
    #expect(indexes.isSuperset(of: ["category_unique_live_key", "category_deleted_key", "recipe_key"]))
    #expect(!indexes.contains("category_key") && !indexes.contains("recipe_deleted_key"))
    let both =
      "SELECT id FROM category WHERE normalizedName = 'produce' AND deletedAt IS NULL UNION ALL "
      + "SELECT id FROM category WHERE normalizedName = 'produce' AND deletedAt IS NOT NULL"
    let plan = try SQLiteInspector.queryPlan(path, both)
    #expect(plan.contains { $0.contains("category_unique_live_key") } && plan.contains { $0.contains("category_deleted_key") }, "\(plan)")
    // A file written before: the key indexed over all rows, no index of tombstones.
    try SQLiteInspector.execute(path, "DROP INDEX category_deleted_key")
    try SQLiteInspector.execute(path, "CREATE INDEX category_key ON category(normalizedName)")
    let reopened = try SQLiteStore(path: path)
    indexes = try SQLiteInspector.indexes(path)
    #expect(indexes.contains("category_deleted_key") && !indexes.contains("category_key"))
    let ids = { (includeDeleted: Bool) in
      try reopened.read { try $0.records(.category, semanticKey: "produce", includeDeleted: includeDeleted).map(\.id) }
    }
    #expect(try ids(true) == [produce.id, oldProduce.id].sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() })
    #expect(try ids(false) == [produce.id])
  }

  @Test func fieldsMarkedIndexedGetAnIndexAlsoInAFileWrittenBeforeTheyWere() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("i.sqlite").path
    _ = try SQLiteStore(path: path)
    #expect(Category.schema.field(named: "sortOrder")?.isIndexed == true)
    #expect(try SQLiteInspector.indexes(path).contains("category_sortOrder"))
    try SQLiteInspector.execute(path, "DROP INDEX category_sortOrder")
    _ = try SQLiteStore(path: path)
    #expect(try SQLiteInspector.indexes(path).contains("category_sortOrder"))
  }

  @Test func referenceIndexesHoldOnlyRowsWithAReferenceAndOldFullOnesAreRebuilt() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("r.sqlite").path
    let book = UUID()
    do {
      let store = try SQLiteStore(path: path)
      try store.write { writer in
        try writer.insertRecord(Fixtures.recipe("Without a book"))
        var withBook = Fixtures.recipe("From a book")
        withBook["book"] = .reference(book)
        try writer.insertRecord(withBook)
      }
    }
    #expect(try SQLiteInspector.indexSQL(path, "recipe_book")?.hasSuffix(#"WHERE "book" IS NOT NULL"#) == true)
    // A file from before: the same index over every row, recipes without a book included.
    try SQLiteInspector.execute(path, #"DROP INDEX recipe_book; CREATE INDEX recipe_book ON recipe(book)"#)
    let store = try SQLiteStore(path: path)
    #expect(try SQLiteInspector.indexSQL(path, "recipe_book")?.hasSuffix(#"WHERE "book" IS NOT NULL"#) == true)
    let found = try store.read { try $0.fetch(RecordQuery(.recipe, filters: [.references("book", book)])) }
    #expect(found.map { $0["displayName"] } == [FieldValue.text("From a book")])
    let plan = try SQLiteInspector.queryPlan(path, "SELECT id FROM recipe WHERE book = 'x' AND deletedAt IS NULL")
    #expect(plan.contains { $0.contains("USING INDEX recipe_book") }, "\(plan)")
  }

  @Test func theMetadataTableIsKeyedByItsKeyAlsoInAFileWrittenBeforeItWas() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("m.sqlite").path
    do {
      let store = try SQLiteStore(path: path)
      try store.write { try $0.setMetadata("kept", forKey: "sync.replica") }
    }
    #expect(try SQLiteInspector.tableSQL(path, "forager_metadata")?.hasSuffix("WITHOUT ROWID") == true)
    // A file from before: the same table with a rowid and an index on the key.
    try SQLiteInspector.execute(
      path,
      """
      CREATE TABLE old (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
      INSERT INTO old SELECT key, value FROM forager_metadata;
      DROP TABLE forager_metadata;
      ALTER TABLE old RENAME TO forager_metadata;
      """)
    #expect(try SQLiteInspector.tableSQL(path, "forager_metadata")?.contains("WITHOUT ROWID") == false)
    let store = try SQLiteStore(path: path)
    #expect(try SQLiteInspector.tableSQL(path, "forager_metadata")?.hasSuffix("WITHOUT ROWID") == true)
    #expect(try store.read { try $0.metadata(forKey: "sync.replica") } == "kept")
    try store.write { try $0.setMetadata("replaced", forKey: "sync.replica") }
    #expect(try store.read { try $0.metadata(forKey: "sync.replica") } == "replaced")
  }

  @Test func aFileFromANewerForagerIsRefusedUntouched() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("new.sqlite").path
    _ = try SQLiteStore(path: path)
    try SQLiteInspector.execute(path, "PRAGMA user_version = 9")
    do {
      _ = try SQLiteStore(path: path)
      Issue.record("opened a v9 store")
    } catch let StoreError.unavailable(location, reason) {
      #expect(location == "sqlite:\(path)")
      #expect(reason.contains("newer Forager"))
    }
    #expect(try SQLiteInspector.userVersion(path) == 9)
  }

  @Test func aForeignDatabaseIsRefusedUntouched() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("other.sqlite").path
    try SQLiteInspector.execute(path, "CREATE TABLE notes (body TEXT)")
    do {
      _ = try SQLiteStore(path: path)
      Issue.record("opened a foreign database")
    } catch let StoreError.unavailable(_, reason) {
      #expect(reason.contains("not a Forager store"))
    }
    #expect(try SQLiteInspector.indexes(path).isEmpty)
  }

  @Test func aPathThatCannotBeAFileIsAClearError() throws {
    let directory = try TemporaryDirectory.make()
    do {
      _ = try SQLiteStore(path: directory.path)
      Issue.record("opened a directory as a store")
    } catch let StoreError.unavailable(location, _) {
      #expect(location == "sqlite:\(directory.path)")
    }
  }

  @Test func twoConnectionsToOneFileSeeEachOthersCommits() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("shared.sqlite").path
    let first = try SQLiteStore(path: path)
    let second = try SQLiteStore(path: path)
    let record = Fixtures.category("Produce", key: "produce")
    try first.write { try $0.insertRecord(record) }
    #expect(try second.read { try $0.record(.category, id: record.id) } == record)
    #expect(throws: StoreError.uniqueViolation(kind: .category, semanticKey: "produce", existing: record.id)) {
      try second.write { try $0.insertRecord(Fixtures.category("produce", key: "produce")) }
    }
  }
}

@Suite("Store factory")
struct StoreFactoryTests {
  @Test func locationsSelectTheirBackend() throws {
    let directory = try TemporaryDirectory.make()
    #expect(try TestBackend.factory.open("memory").location == "memory")
    let explicit = directory.appendingPathComponent("a.sqlite").path
    #expect(try TestBackend.factory.open("sqlite:\(explicit)").location == "sqlite:\(explicit)")
    let bare = directory.appendingPathComponent("b.sqlite").path
    #expect(try TestBackend.factory.open(bare).location == "sqlite:\(bare)")
    #expect(FileManager.default.fileExists(atPath: bare))
  }

  @Test(arguments: ["", "  ", "postgres://localhost/db", "sqlite:"])
  func badLocationsAreClearErrors(_ location: String) throws {
    do {
      _ = try TestBackend.factory.open(location)
      Issue.record("opened '\(location)'")
    } catch let StoreError.unavailable(_, reason) {
      #expect(!reason.isEmpty)
    }
  }
}

@Suite("Monotonic clock")
struct MonotonicClockTests {
  @Test func readingsStrictlyIncreaseByAtLeastAMillisecond() {
    let clock = MonotonicClock()
    let readings = (0..<2_000).map { _ in clock.now() }
    for (earlier, later) in zip(readings, readings.dropFirst()) {
      #expect(later.timeIntervalSince(earlier) >= 0.000_999)
    }
  }

  @Test func aFactoryDatesItsStoresChangesWithItsClock() throws {
    let fixed = Date(timeIntervalSince1970: 1_000)
    let factory = StoreFactory(backends: TestBackend.factory.backends, clock: { fixed })
    let store = try factory.open("memory")
    try store.write { try $0.insertRecord(Fixtures.category("Produce")) }
    #expect(try store.changeLog().map(\.timestamp) == [fixed])
  }

  /// Commits checkpoint the WAL only past ``SQLiteStore/checkpointPages`` pages, not at
  /// SQLite's default 1,000: a WAL that a checkpoint had restarted would stay near 1,000
  /// pages; this one holds every frame of a few thousand pages of small commits.
  @Test func smallCommitsAreCheckpointedRarely() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    let store = try SQLiteStore(path: path)
    for index in 0..<400 {
      try store.write { try $0.insertRecord(Fixtures.category("Aisle \(index)")) }
    }
    let walPages = ((try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0) / 4_096
    #expect(walPages > 1_500, "WAL of \(walPages) pages")
    #expect(walPages < SQLiteStore.checkpointPages)
    try store.close()
    #expect(((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0) == 0)
  }

  /// A commit that leaves the WAL past the limit starts a checkpoint on a connection of its
  /// own, and the writer goes on: the records reach the database file before any close,
  /// and the WAL starts again from its beginning at a later write.
  @Test func aWALPastItsLimitIsCheckpointedBesideTheWriter() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    func size(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0 }
    let store = try SQLiteStore(path: path, checkpointPages: 40)
    let empty = size(path)
    for batch in 0..<8 {
      try store.write { writer in
        for index in 0..<200 { try writer.insertRecord(Fixtures.category("Aisle \(batch)-\(index)")) }
      }
    }
    store.waitForCheckpoint()
    #expect(size(path) > empty + 40 * 4_096, "database file \(size(path)) bytes, \(empty) when opened")
    let wal = size(path + "-wal")
    for index in 0..<50 {
      try store.write { try $0.insertRecord(Fixtures.category("Shelf \(index)")) }
      store.waitForCheckpoint()
    }
    // Without checkpoints the WAL would only grow; restarted, it stays within what the
    // first checkpoint found.
    #expect(size(path + "-wal") <= wal, "WAL \(size(path + "-wal")) bytes, \(wal) before")
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == 1_650)
    try store.close()
    #expect(size(path + "-wal") == 0)
  }

  /// Small commits one after another never leave a checkpoint beside the writer the moment
  /// it needs to have copied the whole WAL, so they checkpoint inside the commit: the WAL
  /// starts again and stays near the limit instead of growing with every commit.
  @Test func smallCommitsPastTheLimitKeepTheWALNearIt() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path
    func size(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0 }
    // A commit of one category adds a few pages, far below a quarter of the limit.
    let store = try SQLiteStore(path: path, checkpointPages: 200)
    for index in 0..<300 {
      try store.write { try $0.insertRecord(Fixtures.category("Aisle \(index)")) }
    }
    #expect(size(path + "-wal") < 2 * 200 * 4_096, "WAL of \(size(path + "-wal") / 4_096) pages")
    #expect(try store.read { try $0.count(RecordQuery(.category)) } == 300)
    try store.close()
  }

  /// A large transaction (a sync page, an import) keeps its dirty pages in the writer's
  /// cache until it commits, instead of spilling them to the WAL and writing them again
  /// as it goes on: the writer's cache is 32 MiB, not SQLite's 2 MB.
  @Test func theWriterCachesALargeTransactionsPages() throws {
    let store = try SQLiteStore(path: try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path)
    #expect(try store.writerSetting("cache_size") == -SQLiteStore.writerCacheKiB)
    #expect(SQLiteStore.writerCacheKiB >= 32_768)
    try store.close()
  }

  /// Statement journals stay in memory: on disk, once one statement of a transaction spilled
  /// its journal (64 KiB), every later statement wrote each page it touched to a temporary
  /// file, two writes a page (330k writes for the sync benchmark's run).
  @Test func theWriterKeepsStatementJournalsInMemory() throws {
    let store = try SQLiteStore(path: try TemporaryDirectory.make().appendingPathComponent("kitchen.sqlite").path)
    #expect(try store.writerSetting("temp_store") == 2, "2 is MEMORY")
    try store.close()
  }
}
