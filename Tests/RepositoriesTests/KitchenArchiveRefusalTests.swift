import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

/// Broken and hostile kitchen archives: each refused with an error that says what and
/// where, and nothing written.
@Suite struct KitchenArchiveRefusalTests {
  /// The rich kitchen's archive as a JSON value to break.
  static func archiveValue() throws -> [String: ArchiveValue] {
    let data = try KitchenArchiveTests.exported(try KitchenArchiveTests.richKitchen(.memory))
    guard case .object(let members) = try JSONDecoder().decode(ArchiveValue.self, from: data) else {
      throw KitchenArchiveError.brokenJSON("the archive is not an object")
    }
    return members
  }

  static func data(_ value: [String: ArchiveValue]) throws -> Data {
    try JSONEncoder().encode(ArchiveValue.object(value))
  }

  /// Changes field `field` of the first record of `array` whose key is `key`.
  static func editing(
    _ array: String, key: String, field: String, to value: ArchiveValue?, in archive: [String: ArchiveValue]
  ) throws -> [String: ArchiveValue] {
    var archive = archive
    guard case .array(var records)? = archive[array],
      let index = records.firstIndex(where: { if case .object(let r) = $0 { r["key"] == .string(key) } else { false } }),
      case .object(var record) = records[index], case .object(var fields)? = record["fields"]
    else { throw KitchenArchiveError.brokenJSON("no \(array) record '\(key)' in the fixture") }
    fields[field] = value
    record["fields"] = .object(fields)
    records[index] = .object(record)
    archive[array] = .array(records)
    return archive
  }

  /// Imports `data` into a kitchen that already holds data, expecting a refusal that
  /// mentions every fragment, and checks that no row and no change-log entry was written.
  static func expectRefused(
    _ data: Data, limits: KitchenArchiveLimits = .standard, mentions fragments: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let kitchen = try KitchenArchiveTests.emptyKitchen(.sqlite)
    _ = try kitchen.categories.getOrCreate("Produce")
    _ = try kitchen.recipes.create(RecipeDraft(name: "Toast", ingredients: ["2 slices bread"]))
    let rows = try kitchen.store.dump(), log = try kitchen.store.changeLog()
    do {
      _ = try kitchen.importKitchen(try KitchenArchive.decode(data, limits: limits))
      Issue.record("the archive was imported", sourceLocation: sourceLocation)
    } catch let error as KitchenArchiveError {
      for fragment in fragments {
        #expect(error.description.contains(fragment), "'\(error)' should mention '\(fragment)'", sourceLocation: sourceLocation)
      }
    }
    #expect(try kitchen.store.dump() == rows, "a refused archive must write nothing", sourceLocation: sourceLocation)
    #expect(try kitchen.store.changeLog() == log, sourceLocation: sourceLocation)
  }

  @Test func aNewerFormatVersionIsRefusedAsNewer() throws {
    var archive = try Self.archiveValue()
    archive["formatVersion"] = .integer(2)
    try Self.expectRefused(try Self.data(archive), mentions: ["format version 2", "reads up to version 1"])
  }

  @Test func anotherFormatIsRefused() throws {
    var archive = try Self.archiveValue()
    archive["format"] = .string("paprika")
    try Self.expectRefused(try Self.data(archive), mentions: ["'paprika'", "forager-kitchen"])
    archive["format"] = nil
    try Self.expectRefused(try Self.data(archive), mentions: ["not a kitchen archive"])
    try Self.expectRefused(Data("[1, 2]".utf8), mentions: ["not valid JSON"])
  }

  @Test func truncatedJSONIsRefused() throws {
    let data = try KitchenArchiveTests.exported(try KitchenArchiveTests.richKitchen(.memory))
    try Self.expectRefused(data.prefix(data.count / 2), mentions: ["not valid JSON"])
  }

  @Test func aControlCharacterInANameIsRefusedNamingTheRecordAndField() throws {
    let archive = try Self.editing(
      "categories", key: "pantry", field: "displayName", to: .string("Pan\u{7}try"), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["categories", "'pantry'", "displayName", "U+0007"])
  }

  @Test func aRelationshipToARecordTheArchiveDoesNotHoldIsRefused() throws {
    let dangling = ArchiveValue.object(["id": .string(UUID().uuidString), "key": .string("frozen")])
    let archive = try Self.editing("ingredientTemplates", key: "flour", field: "category", to: dangling, in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["ingredientTemplates", "'flour'", "category", "key 'frozen'"])
  }

  @Test func aNumberOutOfRangeIsRefused() throws {
    var archive = try Self.editing("categories", key: "dairy", field: "sortOrder", to: .integer(5_000_000), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["categories", "'dairy'", "sortOrder", "5000000"])
    archive = try Self.editing("plannedMeals", key: "2024-12-13-dinner", field: "servings", to: .real(-2), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["plannedMeals", "servings"])
    archive = try Self.editing(
      "plannedMeals", key: "2024-12-13-dinner", field: "date", to: .string("2024-02-30"), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["plannedMeals", "date"])
  }

  @Test func aFieldOfTheWrongTypeOrUnknownIsRefused() throws {
    var archive = try Self.editing("tags", key: "weeknight", field: "color", to: .integer(3), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["tags", "color", "an integer"])
    archive = try Self.editing("tags", key: "weeknight", field: "shade", to: .string("x"), in: try Self.archiveValue())
    try Self.expectRefused(try Self.data(archive), mentions: ["tags", "shade", "not a field"])
  }

  @Test func twoRecordsOfOneKeyAreRefused() throws {
    var archive = try Self.archiveValue()
    guard case .array(var categories)? = archive["categories"], case .object(var copy) = categories[0] else {
      Issue.record("no categories")
      return
    }
    copy["id"] = .string(UUID().uuidString)
    categories.append(.object(copy))
    archive["categories"] = .array(categories)
    try Self.expectRefused(try Self.data(archive), mentions: ["categories", "also the key"])
  }

  @Test func anArrayOverTheLimitIsRefusedBeforeItsRecordsAreRead() throws {
    let data = try Self.data(try Self.archiveValue())
    let limits = KitchenArchiveLimits(maximumBytes: 1 << 20, maximumRecordsPerKind: 2, maximumRecords: 1_000)
    try Self.expectRefused(data, limits: limits, mentions: ["3 categories", "the limit is 2"])
    let small = KitchenArchiveLimits(maximumBytes: 100, maximumRecordsPerKind: 1_000, maximumRecords: 1_000)
    try Self.expectRefused(data, limits: small, mentions: ["bytes; the limit is 100"])
  }
}
