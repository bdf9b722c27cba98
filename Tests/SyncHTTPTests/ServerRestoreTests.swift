import Foundation
import Model
import Persistence
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import SyncWire
import TestSupport
import Testing

/// Restoring a household through a real server: one device deletes everything, and either
/// another device (`restore --before`) or the operator (`restore-household`) restores it;
/// every device converges with nothing lost.
@Suite(.timeLimit(.minutes(10)))
struct ServerRestoreTests {
  /// Every live record of a device by kind and id, with its fields: what a user sees.
  static func rows(_ device: Device) throws -> [String: [FieldValue]] {
    try device.store.read { reader in
      var rows: [String: [FieldValue]] = [:]
      for kind in EntityKind.allCases {
        for record in try reader.fetch(RecordQuery(kind, sort: [])) where record.meta.isLive {
          rows["\(kind.rawValue) \(record.id.lowercaseText)"] = record.values
        }
      }
      return rows
    }
  }

  enum Restorer: String, CaseIterable, CustomTestStringConvertible {
    case device, server
    var testDescription: String { rawValue }
  }

  /// The scenario over `storage`: the phone fills the kitchen, every device syncs; the
  /// laptop deletes every category, template and recipe and syncs; the tablet (or the
  /// operator) restores to before the delete; after everyone syncs, all three show what
  /// they showed before it.
  static func deleteEverythingThenRestore(_ storage: any HouseholdStorage, by restorer: Restorer) async throws {
    let clock = TickingClock()
    let configuration = ServerConfiguration()
    let secrets = try await tokens(storage, devices: ["phone", "laptop", "tablet"])
    let (before, time) = try await withServer(storage, configuration: configuration) { url, _ in
      try await onThread {
        let devices = try secrets.enumerated().map { index, secret in
          try Device(
            ["phone", "laptop", "tablet"][index], cloud: HTTPCloud(url: url, token: secret, household: "Smith", timeout: .seconds(10)),
            clock: clock, seed: UInt64(index + 1))
        }
        let phone = devices[0].library
        _ = try phone.categories.getOrCreate("Produce")
        _ = try phone.categories.getOrCreate("Dairy")
        _ = try phone.ingredients.getOrCreate("basil", category: "produce")
        _ = try phone.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["2 tomatoes", "200 g pasta", "basil"]))
        for device in devices + devices { try device.engine.sync() }
        let before = try Self.rows(devices[0])
        #expect(before.count >= 7, "categories, templates, a recipe and its lines")
        for device in devices { #expect(try Self.rows(device) == before, "\(device.name) before the delete") }
        // T lies after every write so far and before the delete, on the tablet's clock or
        // (for the operator) on the server's, which the devices stamp on.
        clock.advance(milliseconds: 3_000)
        let time = restorer == .device ? clock.now() : devices[1].engine.authorityNow().addingTimeInterval(-2.5)
        clock.advance(milliseconds: 2_000)

        let laptop = devices[1].library
        for recipe in try laptop.recipes.all() { _ = try laptop.recipes.delete(recipe.id.uuidString) }
        for template in try laptop.ingredients.all() { _ = try laptop.ingredients.delete(template.id.uuidString) }
        for category in try laptop.categories.all() { _ = try laptop.categories.delete(category.id.uuidString) }
        for device in devices + devices { try device.engine.sync() }
        for device in devices { #expect(try Self.rows(device).isEmpty, "\(device.name) after the delete") }
        clock.advance(milliseconds: 2_000)
        if restorer == .device {
          let tablet = devices[2]
          let plan = try PointInTime.plan(before: time, in: tablet.store, now: clock.now())
          #expect(plan.restored == before.count && plan.notKept.isEmpty, "\(plan.summary)")
          try PointInTime.apply(plan, to: tablet.store, now: clock.now())
          #expect(try Self.rows(tablet) == before, "the tablet shows everything again at once")
          for device in devices + devices { try device.engine.sync() }
          for device in devices { #expect(try Self.rows(device) == before, "\(device.name) after the restore") }
        }
        return (before, time)
      }
    }
    guard restorer == .server else { return }
    // The devices' clock runs ahead of this machine's by the ticks the test spends: the
    // operator's reads a few seconds ahead too, within the skew devices accept.
    var operatorConfiguration = configuration
    operatorConfiguration.clock = { Date().addingTimeInterval(5) }
    let admin = Administration(storage: storage, configuration: operatorConfiguration)
    let dryRun = try await admin.restoreHousehold("Smith", before: time, apply: false)
    #expect(dryRun.writeCount > 0 && dryRun.sequence == nil)
    let restored = try await admin.restoreHousehold("Smith", before: time, apply: true)
    #expect(restored.sequence != nil && restored.summary.first?.hasPrefix("\(before.count) deleted") == true, "\(restored.summary)")
    try await withServer(storage, configuration: configuration) { url, _ in
      try await onThread {
        for (index, secret) in secrets.enumerated() {
          // A device that starts over from the log, and one per original device's token.
          let device = try Device(
            "device \(index)", cloud: HTTPCloud(url: url, token: secret, household: "Smith", timeout: .seconds(10)), clock: clock,
            seed: UInt64(index + 10))
          try device.engine.sync()
          #expect(try Self.rows(device) == before, "\(device.name) after the operator's restore")
          let registry = try device.engine.cloud.devices()
          #expect(registry.contains { $0.name == Administration.restoreDeviceName }, "the operator's device is registered")
        }
      }
    }
  }

  /// Refusals of the operator's restore change nothing: an unknown household, a time in the
  /// future, a time before the household's first record.
  @Test func theOperatorsRestoreRefusesBadInputAndWritesNothing() async throws {
    let storage: any HouseholdStorage = MemoryHouseholdStorage()
    let admin = Administration(storage: storage)
    await #expect(throws: ServerError.self) { try await admin.restoreHousehold("Nobody", before: Date(), apply: true) }
    _ = try await tokens(storage, devices: ["phone"])
    await #expect(throws: ServerError.self) { try await admin.restoreHousehold("Smith", before: Date(), apply: true) }
    await #expect(throws: ServerError.self) {
      try await admin.restoreHousehold("Smith", before: Date().addingTimeInterval(3_600), apply: true)
    }
    let found = try await storage.household(named: "Smith")
    let household = try #require(found)
    let latest = try await storage.latestSequence(of: household.id)
    let registry = try await storage.devices(of: household.id)
    #expect(latest == 0)
    #expect(registry.allSatisfy { $0.name != Administration.restoreDeviceName })
  }
}
