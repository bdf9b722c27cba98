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
        problems.append("\(key.kind.rawValue) \(key.id.lowercaseText): then \(before.map { "\($0)" } ?? "not live"), now \(after.map { "\($0)" } ?? "not live")")
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
    try phone.revert(plan.reverts)
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
    #expect(throws: PointInTimeError.nothingSynced) { try PointInTime.plan(before: world.clock.now(), in: phone.store, now: world.clock.now()) }
    let beforeAll = world.clock.now()
    _ = try phone.library.categories.getOrCreate("Produce")
    try world.sync("phone")
    let future = world.clock.now().addingTimeInterval(60)
    #expect(throws: PointInTimeError.future(future)) { try PointInTime.plan(before: future, in: phone.store, now: world.clock.now()) }
    #expect(throws: PointInTimeError.self) { try PointInTime.plan(before: beforeAll.addingTimeInterval(-60), in: phone.store, now: world.clock.now()) }
    _ = try phone.library.categories.getOrCreate("Dairy")
    #expect(throws: PointInTimeError.unsyncedChanges) { try PointInTime.plan(before: world.clock.now(), in: phone.store, now: world.clock.now()) }
  }

  @Test(arguments: TestBackend.allCases)
  func aRevertThatBreaksAUniqueKeyWritesNothing(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["phone"])
    let library = world["phone"].library
    let produce = try library.categories.getOrCreate("Produce")
    let dairy = try library.categories.getOrCreate("Dairy")
    let before = try Self.rows(library.store)
    let reverts = [
      RecordRevert(kind: .category, id: produce.id, fields: ["displayName": .text("Eggs"), "normalizedName": .text("eggs")], liveness: .live),
      RecordRevert(kind: .category, id: dairy.id, fields: ["displayName": .text("Eggs"), "normalizedName": .text("eggs")], liveness: .live),
    ]
    #expect(throws: StoreError.self) { try library.revert(reverts) }
    #expect(try Self.rows(library.store) == before)
  }

  static var seeds: [UInt64] {
    guard let text = ProcessInfo.processInfo.environment["FORAGER_RESTORE_SEEDS"] else { return Array(1...6) }
    let bounds = text.split(separator: "-").compactMap { UInt64($0) }
    if bounds.count == 2 { return Array(bounds[0]...bounds[1]) }
    return text.split(separator: ",").compactMap { UInt64($0) }
  }

  /// A random schedule of the convergence tests; at a random step the first device syncs
  /// and its rows are taken with the time T: the view of its states at T. After the schedule and a full sync, that device restores
  /// to T and everything syncs: every device then shows what the first device showed at
  /// T, for the records whose history it keeps. Later changes still merge by the usual
  /// rules (the invariants of the convergence check hold, and every view is its states').
  @Test(arguments: seeds)
  func aRestoreToARandomTimeShowsWhatTheDeviceShowedThenOnEveryDevice(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed &+ 7_919)
    let operations = 150
    let snapshotAt = 20 + Int(random.next() % 100)
    var step = 0
    var then: [RecordKey: [FieldValue]?] = [:]
    var time = Date.distantPast
    let (world, _) = try RandomizedConvergenceTests.play(seed: seed, operations: operations) { device, world, schedule in
      if step == snapshotAt {
        // Synced at T, the first device's rows are the view of its states then.
        try world.sync(world.devices[0])
        then = try Self.rows(world.devices[0].store)
        time = world.clock.now()
      }
      step += 1
      try RandomizedConvergenceTests.work(device, world, &schedule)
    }
    world.offline = []
    try world.syncUntilQuiet(maxRounds: 12)
    let restorer = world.devices[0]
    let plan = try PointInTime.plan(before: time, in: restorer.store, now: world.clock.now())
    try restorer.library.revert(plan.reverts)
    try world.syncUntilQuiet(maxRounds: 12)
    let skipped = Set(plan.notKept.compactMap { text -> RecordKey? in
      let parts = text.split(separator: " ")
      guard parts.count == 2, let kind = EntityKind(rawValue: String(parts[0])), let id = UUID(uuidString: String(parts[1])) else { return nil }
      return RecordKey(kind: kind, id: id)
    })
    if ProcessInfo.processInfo.environment["DEBUG_RESTORE"] != nil {
      let problems = Self.differences(then, try Self.rows(restorer.store), skipping: skipped)
      print("T", time.timeIntervalSince1970, "replica", try restorer.engine.replicaID())
      for line in problems.prefix(2) {
        let parts = line.split(separator: " ")
        let kind = EntityKind(rawValue: String(parts[0]))!
        let id = UUID(uuidString: String(parts[1].dropLast()))!
        print("PROBLEM", line)
        print("REVERT", plan.reverts.filter { $0.id == id })
        let st = try restorer.store.read { try $0.states([RecordKey(kind: kind, id: id)]) }
        print("STATE", st.values.first.map { s in s.fieldNames.map { "\($0)=\(s[$0]!.value)@\(s[$0]!.stamp)" } } ?? [])
        print("EDGES", try restorer.store.read { try $0.metadataKeys(withPrefix: "sync.edge/") })
        let all = try restorer.store.read { r in try r.states(try r.syncStateIDs(kind).map { RecordKey(kind: kind, id: $0) }) }
        for (k, s) in all { print("  ", k.id.lowercaseText.prefix(8), s.fieldNames.filter { !$0.hasPrefix("sort") }.map { "\($0)=\(s[$0]!.value.displayText)@\(s[$0]!.stamp)" }) }
        for row in try restorer.store.read({ try $0.syncHistory(kind, id: id) }) {
          let entry = HistoryEntry(row)!
          print(" entry", entry.time.timeIntervalSince1970, entry.registers.map { "\($0.key): \($0.value.old.map { "\($0.value)@\($0.stamp)" } ?? "nil") -> \($0.value.new.value)@\($0.value.new.stamp)" })
        }
      }
    }
    for device in world.devices {
      let problems = Self.differences(then, try Self.rows(device.store), skipping: skipped)
      #expect(problems.isEmpty, "seed \(seed), \(device.name): \(problems.count) differences, first \(problems.prefix(3))")
    }
    #expect(world.viewProblems.isEmpty, "seed \(seed): \(world.viewProblems.prefix(3))")
    // No duplicate key, no dangling reference (what users created since T is gone on
    // purpose, so creations are not held to invariant 4 here).
    #expect(try world.invariantViolations().isEmpty, "seed \(seed)")
  }
}
