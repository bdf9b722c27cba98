import Foundation
import LegacyStoreSupport
import Migration
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import SyncMemory
import TestSupport
import Testing

/// A device upgrades a store whose old sync had duplicated a template, while another
/// device, already on Forager, has just used the duplicate the upgrade merges away.
@Suite("Sync after a migration")
struct MigratedStoreSyncTests {
  static let keeperID = UUID(uuidString: "00000000-0000-4000-8000-00000000000a")!
  static let loserID = UUID(uuidString: "ffffffff-0000-4000-8000-00000000000b")!

  static func template(_ id: UUID, _ name: String) -> IngredientTemplate {
    IngredientTemplate(meta: Fixtures.meta(id), displayName: name, canonicalName: "quail egg", ingredientKind: .protein)
  }

  /// A v2 file (stage A of a generated v1 store) that also holds two "quail egg"
  /// templates, as the earlier app's sync left them.
  static func versionTwoFileWithDuplicateTemplates() throws -> String {
    let path = try TemporaryDirectory.make().appendingPathComponent("x.sqlite").path
    _ = try LegacyStoreGenerator(seed: 5, recordCount: 60, timeZone: TimeZone(identifier: "UTC")!).write(to: path)
    var stageA = StoreMigrator(path: path)
    stageA.stopsAfterStageA = true
    _ = try stageA.migrate(MigrationOptions(makeBackup: false))
    try StoreMigrator.withVersionTwoWriter(path: path) { writer in
      // The duplicate first: the upgraded device then pushes its tombstone before the
      // keeper, and a device that applies the tombstone first has nothing live to merge it into.
      try writer.insertRecord(template(loserID, "quail eggs").record)
      try writer.insertRecord(template(keeperID, "Quail Eggs").record)
    }
    return path
  }

  /// What the old build on the upgrading device had pushed: the duplicate only.
  static func oldBuildsPush() -> ChangeBatch {
    let stamp = Stamp(time: Int64(Fixtures.epoch.timeIntervalSince1970 * 1000), counter: 0, replica: "x-old")
    let loser = template(loserID, "quail eggs")
    let change = RecordChange(
      kind: .ingredientTemplate, id: loserID, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local",
      sharingScope: .private,
      // The fields a schema 2 build knew.
      fields: loser.fieldValues.filter { SchemaHistory.firstSchema(of: $0.key, in: .ingredientTemplate) <= 2 }
        .mapValues { StampedValue(value: $0, stamp: stamp) }
    )
    return ChangeBatch(id: "x-old:1-1", replica: "x-old", schemaVersion: 2, changes: [change])
  }

  static func lineTemplates(_ library: Library) throws -> [UUID?] {
    try library.recipes.details("Omelette").lines.map(\.ingredient.template)
  }

  @Test func aLineAddedElsewhereToAMergedTemplateFollowsItToTheKeeper() throws {
    let cloud = InMemoryCloud()
    _ = try cloud.push(Self.oldBuildsPush())

    // Y knows only the duplicate and uses it in a recipe.
    let yStore = try TestBackend.memory.makeStore()
    let y = (library: Library(store: yStore), engine: SyncEngine(store: yStore, cloud: cloud, deviceName: "Y"))
    try y.engine.sync()
    _ = try y.library.recipes.create(RecipeDraft(name: "Omelette", ingredients: ["3 quail eggs", "1 tbsp butter"]))
    #expect(try Self.lineTemplates(y.library).first == Self.loserID)
    try y.engine.sync()

    // X upgrades: the dedup step merges the duplicate into the keeper, the way the
    // `migrate` command runs it, telling sync.
    let path = try Self.versionTwoFileWithDuplicateTemplates()
    let migrator = StoreMigrator(path: path)
    let report = try migrator.migrate(MigrationOptions(makeBackup: false))
    #expect(report.dedup?.merges.contains { $0.keeper.id == Self.keeperID && $0.losers.map(\.id) == [Self.loserID] } == true)
    let xStore = try SQLiteStore(path: path)
    let x = (library: Library(store: xStore), engine: SyncEngine(store: xStore, cloud: cloud, deviceName: "X"))

    for engine in [x.engine, y.engine, x.engine, y.engine] { try engine.sync() }

    // Neither device lost the line: both point it at the keeper.
    for library in [x.library, y.library] {
      #expect(try Self.lineTemplates(library).first == Self.keeperID)
      #expect(try library.ingredients.find("quail eggs")?.id == Self.keeperID)
      #expect(try library.duplicates().isEmpty)
    }
  }

  /// Two devices upgrade copies of one old store (two dinners in one slot, "Corn" and
  /// "corn", and the rest of a generated kitchen), then sync back and forth: both
  /// migrations write the same registers at the migration tier, so the devices agree
  /// after one exchange and stay agreed.
  @Test func twoDevicesThatMigrateCopiesOfOneOldStoreConverge() throws {
    let directory = try TemporaryDirectory.make()
    let original = directory.appendingPathComponent("old.sqlite").path
    _ = try LegacyStoreGenerator(seed: 11, recordCount: 600, duplicateGroups: 12).write(to: original)
    var devices: [(name: String, store: any Store, engine: SyncEngine)] = []
    let cloud = InMemoryCloud()
    for (index, name) in ["X", "Y"].enumerated() {
      let path = directory.appendingPathComponent("\(name).sqlite").path
      try FileManager.default.copyItem(atPath: original, toPath: path)
      let report = try StoreMigrator(path: path).migrate(MigrationOptions(makeBackup: false))
      #expect((report.dedup?.merges.count ?? 0) >= 12, "the copies hold duplicates to merge")
      let store = try SQLiteStore(path: path)
      let engine = SyncEngine(store: store, cloud: cloud, deviceName: name, replicaIDs: .seeded(UInt64(index)))
      devices.append((name, store, engine))
    }
    for device in devices + devices { try device.engine.sync() }
    let snapshots = try devices.map { try ReplicaSnapshot.read($0.name, $0.store) }
    #expect(ConvergenceCheck().violations(snapshots) == [])

    // Another round moves nothing: the devices settled.
    for device in devices {
      let report = try device.engine.sync()
      #expect(report.exported == 0 && report.merges == 0, "\(device.name): \(report)")
    }
  }
}
