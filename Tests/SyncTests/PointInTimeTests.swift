import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// `restore --before T` (``PointInTime``): every record back to how the restoring device
/// showed it at T, on every device after sync; refusals change nothing.
@Suite("Restore to a point in time")
struct PointInTimeTests {
  /// Every record a device holds, by kind and id: nil for a tombstone, else its fields.
  static func rows(_ store: any Store) throws -> [RecordKey: [FieldValue]?] {
    try store.read { reader in
      var rows: [RecordKey: [FieldValue]?] = [:]
      for kind in EntityKind.allCases {
        for record in try reader.fetch(RecordQuery(kind, includeDeleted: true, sort: [])) {
          rows[RecordKey(kind: kind, id: record.id)] = record.meta.isLive ? .some(record.values) : .some(nil)
        }
      }
      return rows
    }
  }

  /// The live records of `now` that differ from `then` (missing, extra or other fields),
  /// leaving out `skipped`.
  static func differences(_ then: [RecordKey: [FieldValue]?], _ now: [RecordKey: [FieldValue]?], skipping skipped: Set<RecordKey>)
    -> [String]
  {
    var problems: [String] = []
    for key in Set(then.keys).union(now.keys).sorted() where !skipped.contains(key) {
      let before = then[key] ?? nil
      let after = now[key] ?? nil
      if before != after {
        problems.append(
          "\(key.kind.rawValue) \(key.id.lowercaseText): then \(before.map { "\($0)" } ?? "not live"), now \(after.map { "\($0)" } ?? "not live")"
        )
      }
    }
    return problems
  }

  @Test(arguments: TestBackend.allCases)
  func aRestoreUndoesARenameADeleteAndACreationOnEveryDevice(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone", "tablet"])
    let phone = world["phone"].library
    _ = try phone.categories.getOrCreate("Produce")
    _ = try phone.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["2 tomatoes", "200 g pasta"]))
    try world.sync("phone")
    try world.sync("tablet")
    let then = try Self.rows(world["phone"].store)
    let time = world.clock.now()

    let tablet = world["tablet"].library
    _ = try tablet.categories.rename("Produce", to: "Vegetables")
    _ = try tablet.recipes.delete("Tomato Pasta")
    _ = try tablet.categories.getOrCreate("Bakery")
    try world.sync("tablet")
    try world.sync("phone")

    let plan = try PointInTime.plan(before: time, in: world["phone"].store, now: world.clock.now())
    #expect(plan.renamed == 1 && plan.notKept.isEmpty)
    #expect(plan.restored >= 1 && plan.removed == 1, "the recipe back (with its lines), Bakery gone")
    try PointInTime.apply(plan, to: world["phone"].store, now: world.clock.now())
    for _ in 0..<2 {
      try world.sync("phone")
      try world.sync("tablet")
    }
    for name in ["phone", "tablet"] {
      #expect(Self.differences(then, try Self.rows(world[name].store), skipping: []) == [], "\(name)")
    }
    #expect(try tablet.recipes.details("Tomato Pasta").lines.count == 2)
    #expect(world.viewProblems.isEmpty)
  }

  @Test(arguments: TestBackend.allCases)
  func badTimesAndUnsyncedChangesAreRefusedAndChangeNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let phone = world["phone"]
    #expect(throws: PointInTimeError.nothingSynced) {
      try PointInTime.plan(before: world.clock.now(), in: phone.store, now: world.clock.now())
    }
    let beforeAll = world.clock.now()
    _ = try phone.library.categories.getOrCreate("Produce")
    try world.sync("phone")
    let future = world.clock.now().addingTimeInterval(60)
    #expect(throws: PointInTimeError.future(future)) { try PointInTime.plan(before: future, in: phone.store, now: world.clock.now()) }
    #expect(throws: PointInTimeError.self) {
      try PointInTime.plan(before: beforeAll.addingTimeInterval(-60), in: phone.store, now: world.clock.now())
    }
    _ = try phone.library.categories.getOrCreate("Dairy")
    #expect(throws: PointInTimeError.unsyncedChanges) {
      try PointInTime.plan(before: world.clock.now(), in: phone.store, now: world.clock.now())
    }
  }

  @Test(arguments: TestBackend.allCases)
  func aRevertThatBreaksAUniqueKeyWritesNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let library = world["phone"].library
    let produce = try library.categories.getOrCreate("Produce")
    let dairy = try library.categories.getOrCreate("Dairy")
    let before = try Self.rows(library.store)
    let reverts = [
      RecordRevert(
        kind: .category, id: produce.id, fields: ["displayName": .text("Eggs"), "normalizedName": .text("eggs")], liveness: .live),
      RecordRevert(
        kind: .category, id: dairy.id, fields: ["displayName": .text("Eggs"), "normalizedName": .text("eggs")], liveness: .live),
    ]
    #expect(throws: StoreError.self) { try library.revert(reverts) }
    #expect(try Self.rows(library.store) == before)
  }

  /// A record whose only difference from T is a reference to a record merged since T (the
  /// view shows the entity's keeper) is left for that merge; any other difference is not.
  @Test func aReferenceToARecordMergedSinceIsLeftForTheMerge() {
    let id = { (n: Int) in UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n)) ?? UUID() }
    let (template, produce, keeper, dairy) = (id(1), id(2), id(3), id(4))
    let row = { (category: UUID, name: String) in
      Record(
        kind: .ingredientTemplate, meta: RecordMetadata(id: template, createdAt: Fixtures.epoch),
        fields: ["displayName": .text(name), "canonicalName": .text(name), "category": .reference(category)])
    }
    let then = row(produce, "basil")
    #expect(Planner.differsByMergedReferences(then, row(keeper, "basil"), merged: [produce, keeper]))
    #expect(!Planner.differsByMergedReferences(then, row(dairy, "basil"), merged: [keeper]), "the reference at T was not merged")
    #expect(!Planner.differsByMergedReferences(then, row(keeper, "basil2"), merged: [produce, keeper]), "another field differs")
    #expect(!Planner.differsByMergedReferences(then, nil, merged: [produce, keeper]), "not shown at all")
  }

  static var seeds: [UInt64] {
    guard let text = ProcessInfo.processInfo.environment["FORAGER_RESTORE_SEEDS"] else { return Array(1...12) }
    let bounds = text.split(separator: "-").compactMap { UInt64($0) }
    if bounds.count == 2 { return Array(bounds[0]...bounds[1]) }
    return text.split(separator: ",").compactMap { UInt64($0) }
  }

  /// Who restores in a schedule: the first device from its store, or an operator from the
  /// household's log (a batch of its own pushed to the cloud).
  enum Restorer: String, CaseIterable, CustomTestStringConvertible {
    case device, log
    var testDescription: String { rawValue }
  }

  /// The rows every device shows after a restore, and what was left out.
  struct Restored {
    let world: SyncWorld
    let then: [RecordKey: [FieldValue]?]
    let plan: PointInTime.Plan
  }

  /// Plays a random schedule of the convergence tests; at a random step the first device
  /// syncs (for the log, every device does, so the log holds everything stamped before T)
  /// and its rows are taken with the time T: the view of its states at T. After the
  /// schedule and a full sync, the restorer restores T and everything syncs again.
  /// - Parameter planned: changes the plan before it is applied (the negative test's
  ///   broken planner).
  static func restoreAfterRandomWork(
    seed: UInt64, by restorer: Restorer, planned: (PointInTime.Plan) -> PointInTime.Plan = { $0 }
  ) throws -> Restored {
    var random = SeededGenerator(seed: seed &+ 7_919)
    let operations = 150
    let snapshotAt = 20 + Int(random.next() % 100)
    var step = 0
    var then: [RecordKey: [FieldValue]?] = [:]
    var time = Date.distantPast
    let (world, _) = try RandomizedConvergenceTests.play(seed: seed, operations: operations) { device, world, schedule in
      if step == snapshotAt {
        if restorer == .log {
          let offline = world.offline
          world.offline = []
          try world.syncUntilQuiet(maxRounds: 12)
          world.offline = offline
        }
        try world.sync(world.devices[0])
        then = try Self.rows(world.devices[0].store)
        time = world.clock.now()
      }
      step += 1
      try RandomizedConvergenceTests.work(device, world, &schedule)
    }
    world.offline = []
    try world.syncUntilQuiet(maxRounds: 12)
    let plan: PointInTime.Plan
    switch restorer {
    case .device:
      let store = world.devices[0].store
      plan = planned(try PointInTime.plan(before: time, in: store, now: world.clock.now()))
      try PointInTime.apply(plan, to: store, now: world.clock.now())
    case .log:
      var batches: [ChangeBatch] = []
      var after: Int64 = 0
      while true {
        let page = try world.cloud.pull(after: after, limit: 500)
        guard let last = page.last else { break }
        batches += page.filter { $0.held == nil && $0.damage == nil }.map(\.batch)
        after = last.sequence
      }
      let restore = try PointInTime.restore(
        batches, before: time, replica: "operator", schemaVersion: ChangeBatchCoding.schemaVersion, now: world.clock.now())
      plan = restore.plan
      if let batch = restore.batch { _ = try world.cloud.push(batch) }
    }
    try world.syncUntilQuiet(maxRounds: 12)
    return Restored(world: world, then: then, plan: plan)
  }

  /// The property: for any T, a restore to T, after sync, makes every device show what the
  /// first device showed at T (for every record the plan does not list as left, and none
  /// is left for a reason other than a merge since T or history not kept), and later
  /// changes still merge by the usual rules: every view is its states' (checked after
  /// every sync), no two live records share a key, no reference dangles.
  @Test(arguments: seeds, Restorer.allCases)
  func aRestoreToARandomTimeShowsWhatTheDeviceShowedThenOnEveryDevice(seed: UInt64, restorer: Restorer) throws {
    let restored = try Self.restoreAfterRandomWork(seed: seed, by: restorer)
    let (world, plan) = (restored.world, restored.plan)
    let skipped = Set(plan.notKept.map { RecordKey(kind: $0.kind, id: $0.id) })
    #expect(
      !plan.notKept.contains { $0.reason == .notRestorable },
      "seed \(seed): \(plan.notKept.filter { $0.reason == .notRestorable }.prefix(3))")
    for device in world.devices {
      let problems = Self.differences(restored.then, try Self.rows(device.store), skipping: skipped)
      #expect(problems.isEmpty, "seed \(seed), \(device.name): \(problems.count) differences, first \(problems.prefix(3))")
    }
    #expect(world.viewProblems.isEmpty, "seed \(seed): \(world.viewProblems.prefix(3))")
    // No duplicate key, no dangling reference (what users created since T is gone on
    // purpose, so creations are not held to invariant 4 here).
    #expect(try world.invariantViolations().isEmpty, "seed \(seed)")
  }
}

/// The property's check fails on a broken planner: one that leaves every existence
/// register as it is (deleted records stay deleted, records created since stay).
@Suite("Restore to a point in time: the check catches a broken plan")
struct PointInTimeBrokenPlanTests {
  @Test func aPlanThatSkipsExistenceLeavesDifferences() throws {
    var found = 0
    for seed: UInt64 in 1...3 {
      let restored = try PointInTimeTests.restoreAfterRandomWork(seed: seed, by: .device) { plan in
        PointInTime.Plan(
          time: plan.time, writes: plan.writes.filter { $0.name != RecordState.existsField }, stateWrites: plan.stateWrites,
          restored: plan.restored, removed: plan.removed, changed: plan.changed, renamed: plan.renamed, notKept: plan.notKept)
      }
      let skipped = Set(restored.plan.notKept.map { RecordKey(kind: $0.kind, id: $0.id) })
      let rows = try PointInTimeTests.rows(restored.world.devices[0].store)
      found += PointInTimeTests.differences(restored.then, rows, skipping: skipped).count
    }
    #expect(found > 0, "a restore that writes no existence register must leave records that differ from T")
  }
}
