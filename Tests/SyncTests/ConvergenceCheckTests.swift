import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// Each check of ``ConvergenceCheck`` passes on devices that synced and fails on a device
/// whose merge went wrong: its rows changed behind sync's back after the last sync, as a
/// broken join or view would leave them.
@Suite("Convergence check")
struct ConvergenceCheckTests {
  /// Two devices that created the same category and a recipe planned for dinner, synced
  /// until quiet; the check knows what the users created.
  static func converged(_ backend: TestBackend) throws -> (SyncWorld, ConvergenceCheck, Recipe) {
    let world = try SyncWorld(backend, devices: ["A", "B"], seed: 7)
    var check = ConvergenceCheck()
    let produceA = try world["A"].library.categories.getOrCreate("Produce")
    let produceB = try world["B"].library.categories.getOrCreate("produce")
    let tomato = try world["A"].library.ingredients.getOrCreate("tomato", category: "Produce")
    guard case .created(let soup) = try world["B"].library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["2 tomatoes"])) else {
      throw TestFailure("Soup was not created")
    }
    let meal = try world["B"].library.meals.plan(date: "2024-12-21", mealType: "dinner", recipe: "Soup").meal
    for ref in [
      RecordRef(.category, produceA.id), RecordRef(.category, produceB.id), RecordRef(.ingredientTemplate, tomato.id),
      RecordRef(.recipe, soup.id), RecordRef(.plannedMeal, meal.id),
    ] {
      check.created.insert(ref)
    }
    try world.syncUntilQuiet()
    return (world, check, soup)
  }

  struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Rewrites one row on one device without telling sync.
  static func tamper(_ store: any Store, _ kind: EntityKind, _ id: UUID, _ change: (inout Record) -> Void) throws {
    try store.write(origin: .derived) { writer in
      guard var record = try writer.record(kind, id: id) else { throw TestFailure("no \(kind.rawValue) \(id)") }
      change(&record)
      try writer.updateRecord(record)
    }
  }

  @Test(arguments: TestBackend.allCases)
  func passesOnSyncedDevices(backend: TestBackend) throws {
    let (world, check, _) = try Self.converged(backend)
    #expect(try world.invariantViolations(check) == [])
    // Categories take their id from their key: both devices made one record.
    #expect(check.created.filter { $0.kind == .category }.count == 1)
  }

  @Test(arguments: TestBackend.allCases)
  func namesAFieldTheDevicesShowDifferently(backend: TestBackend) throws {
    let (world, check, soup) = try Self.converged(backend)
    try Self.tamper(world["B"].store, .recipe, soup.id) { $0["recipeCuisine"] = .text("Thai") }
    let problems = try world.invariantViolations(check)
    #expect(problems.count == 1)
    #expect(problems.first?.contains("recipe \(soup.id.uuidString.prefix(8).lowercased()).recipeCuisine") == true)
  }

  /// A tombstone that shows an entity (its keeper's) is compared like a live row: the
  /// same deleted recipe must hold the same fields and dates on every device.
  @Test(arguments: TestBackend.allCases)
  func namesATombstoneTheDevicesShowDifferently(backend: TestBackend) throws {
    var (world, check, soup) = try Self.converged(backend)
    _ = try world["A"].library.recipes.delete(soup.id.uuidString)
    check.userDeleted.insert(RecordRef(.recipe, soup.id))
    try world.syncUntilQuiet()
    #expect(try world.invariantViolations(check) == [])
    try Self.tamper(world["B"].store, .recipe, soup.id) { $0["recipeCuisine"] = .text("Thai") }
    let problems = try world.invariantViolations(check)
    #expect(problems.contains { $0.contains("recipe \(soup.id.uuidString.prefix(8).lowercased()).recipeCuisine") }, "\(problems)")
  }

  @Test(arguments: TestBackend.allCases)
  func findsARecordLostOnOneDevice(backend: TestBackend) throws {
    let (world, check, soup) = try Self.converged(backend)
    try world["B"].store.write(origin: .derived) { writer in
      try writer.tombstoneRecord(.recipe, id: soup.id, at: Date(timeIntervalSince1970: 0))
    }
    let problems = try world.invariantViolations(check)
    #expect(problems.contains { $0.contains(".@deletedAt: A shows live, B shows 0.0") })
    #expect(problems.contains { $0.hasPrefix("B: recipe") && $0.contains("created by a user, is gone") })
    // The meal still points at the lost recipe on B.
    #expect(problems.contains { $0.hasPrefix("B: plannedMeal") && $0.contains("points at missing or deleted recipe") })
  }

  @Test(arguments: TestBackend.allCases)
  func findsALossEveryDeviceAgreesOn(backend: TestBackend) throws {
    // A merge that dropped the category everywhere: the devices agree, and only invariant 4
    // sees it.
    let (world, check, _) = try Self.converged(backend)
    for device in world.devices {
      let categories = try device.store.dump().filter { $0.kind == .category }
      try device.store.write(origin: .derived) { writer in
        for category in categories {
          try writer.tombstoneRecord(.category, id: category.id, at: Date(timeIntervalSince1970: 0))
        }
      }
      let tomato = try #require(try device.store.dump().first { $0.kind == .ingredientTemplate })
      try Self.tamper(device.store, .ingredientTemplate, tomato.id) { $0["category"] = .null }
    }
    let problems = try world.invariantViolations(check)
    #expect(problems.count == 2, "the category on both devices: \(problems)")
    #expect(problems.allSatisfy { $0.contains("category") && $0.contains("created by a user, is gone") })
    // The same rows pass when the users deleted the category.
    var deleted = check
    deleted.userDeleted.insert(try #require(check.created.first { $0.kind == .category }))
    #expect(try world.invariantViolations(deleted) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func findsAReferenceToARecordThatIsNotThere(backend: TestBackend) throws {
    let (world, check, _) = try Self.converged(backend)
    let stray = UUID(uuidString: "00000000-0000-4000-8000-0000000000ff")!
    for device in world.devices {
      let tomato = try #require(try device.store.dump().first { $0.kind == .ingredientTemplate })
      try Self.tamper(device.store, .ingredientTemplate, tomato.id) { $0["category"] = .reference(stray) }
    }
    let problems = try world.invariantViolations(check)
    #expect(problems.count == 2)
    #expect(problems.allSatisfy { $0.contains("category points at missing or deleted category 00000000") })
  }

  @Test func findsTwoLiveRecordsWithOneKey() throws {
    // The stores refuse a second live row with a key, so the rows are built here.
    let meta = { (id: UUID) in RecordMetadata(id: id, createdAt: Date(timeIntervalSince1970: 0)) }
    let fields: [String: FieldValue] = ["displayName": .text("Produce"), "normalizedName": .text("produce"), "sortOrder": .integer(0)]
    let a = Record(kind: .category, meta: meta(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!), fields: fields)
    let b = Record(kind: .category, meta: meta(UUID(uuidString: "00000000-0000-4000-8000-000000000002")!), fields: fields)
    let replica = ReplicaSnapshot(name: "A", records: [a, b], edges: [])
    #expect(
      ConvergenceCheck().violations([replica]) == [
        "A: category 00000000 and category 00000000 are both live with key \"produce\""
      ])
    #expect(ConvergenceCheck().violations([ReplicaSnapshot(name: "A", records: [a], edges: [])]) == [])
  }

  @Test(arguments: TestBackend.allCases)
  func namesAStateThatDiffersRegisterByRegister(backend: TestBackend) throws {
    let (world, check, soup) = try Self.converged(backend)
    try RefusalsAndLimitsTests.plant(
      .text("Stew"), in: "displayName", of: RecordKey(kind: .recipe, id: soup.id), in: world["B"].store)
    let problems = try world.invariantViolations(check)
    #expect(problems.contains { $0.hasPrefix("state recipe/\(soup.id.uuidString.lowercased()) differs: displayName:") }, "\(problems)")
  }

  @Test(arguments: TestBackend.allCases)
  func namesMetadataTheDevicesShowDifferently(backend: TestBackend) throws {
    let (world, check, soup) = try Self.converged(backend)
    try Self.tamper(world["B"].store, .recipe, soup.id) { $0.meta.sharingScope = .shared }
    let problems = try world.invariantViolations(check)
    #expect(problems.contains { $0.contains("recipe \(soup.id.uuidString.prefix(8).lowercased()).@sharingScope") }, "\(problems)")
  }

  /// A lost record is explained by a shared key only when its state holds a key a live
  /// record shows: an old row of it that once showed that key does not explain it.
  @Test func aLossIsNotExplainedByAKeyItsRowShowedBefore() throws {
    let day = Date(timeIntervalSince1970: 0)
    let (lost, live) = (
      UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, UUID(uuidString: "00000000-0000-4000-8000-000000000002")!
    )
    func row(_ id: UUID, _ name: String, live: Bool) -> Record {
      var meta = RecordMetadata(id: id, createdAt: day)
      if !live { meta.deletedAt = day }
      return Record(
        kind: .category, meta: meta,
        fields: ["displayName": .text(name), "normalizedName": .text(name.lowercased()), "sortOrder": .integer(0)])
    }
    func state(_ id: UUID, key: String) -> String {
      let stamp = Stamp(time: 5, counter: 0, replica: "a")
      return StateCoding.encode(
        RecordState(
          kind: .category, id: id, createdAt: day, updatedAt: day, ownerID: "local", sharingScope: .private,
          registers: [
            "displayName": StampedValue(value: .text(key), stamp: stamp), "normalizedName": StampedValue(value: .text(key), stamp: stamp),
            RecordState.existsField: StampedValue(value: .bool(true), stamp: stamp),
          ]))
    }
    var check = ConvergenceCheck()
    check.created = [RecordRef(.category, lost)]
    let rows = [row(lost, "Produce", live: false), row(live, "Produce", live: true)]
    let renamed = ReplicaSnapshot(
      name: "A", records: rows, edges: [], states: ["category/\(lost.uuidString.lowercased())": state(lost, key: "dairy")])
    #expect(check.violations([renamed]).contains { $0.hasPrefix("A: category 00000000") && $0.contains("is gone") })
    let sharing = ReplicaSnapshot(
      name: "A", records: rows, edges: [], states: ["category/\(lost.uuidString.lowercased())": state(lost, key: "produce")])
    #expect(check.violations([sharing]) == [])
  }

  /// Two devices whose rows differ only in the Unicode form of a text (one holds "Crème"
  /// precomposed, the other decomposed) have not converged: the check compares bytes, where
  /// Swift's `==` on the texts calls them equal.
  @Test func namesRowsThatDifferOnlyInUnicodeForm() throws {
    let id = UUID(uuidString: "00000000-0000-4000-8000-000000000003")!
    func row(_ name: String, owner: String = "local") -> Record {
      Record(
        kind: .category, meta: RecordMetadata(id: id, createdAt: Date(timeIntervalSince1970: 0), ownerID: owner),
        fields: ["displayName": .text(name), "normalizedName": .text("creme"), "sortOrder": .integer(0)])
    }
    let (composed, decomposed) = ("Cr\u{E8}me", "Cre\u{300}me")
    #expect(composed == decomposed)  // what a comparison by String == would have seen
    let a = ReplicaSnapshot(name: "A", records: [row(composed)], edges: [])
    #expect(ConvergenceCheck.differences(a, ReplicaSnapshot(name: "B", records: [row(composed)], edges: [])) == [])
    let field = ConvergenceCheck.differences(a, ReplicaSnapshot(name: "B", records: [row(decomposed)], edges: []))
    #expect(field == ["category 00000000.displayName: A shows text(\"\(composed)\"), B shows text(\"\(decomposed)\") (not NFC)"])
    let owner = ConvergenceCheck.differences(
      ReplicaSnapshot(name: "A", records: [row(composed, owner: "zo\u{EB}")], edges: []),
      ReplicaSnapshot(name: "B", records: [row(composed, owner: "zoe\u{308}")], edges: []))
    #expect(owner.count == 1 && owner.first?.hasPrefix("category 00000000.@ownerID") == true, "\(owner)")
  }
}
