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

  /// The devices of a scenario, handed from one blocking phase to the next.
  final class Devices: @unchecked Sendable {
    var all: [Device] = []
  }

  /// The scenario over `storage`: the phone fills the kitchen, every device syncs; the
  /// laptop deletes every category, template and recipe and syncs; the tablet (or the
  /// operator) restores to before the delete; after everyone syncs, all three show what
  /// they showed before it.
  ///
  /// One clock, the test's, is the devices' stores' and the server's, so T is typed on the
  /// clock every stamp is made on. A device reads the server's clock from its last answer,
  /// moved on by the real time since, so the test's clock jumps at most 1 s between syncs:
  /// the offset each device measures stays within half the allowed skew and is kept at 0.
  static func deleteEverythingThenRestore(_ storage: any HouseholdStorage, by restorer: Restorer) async throws {
    let clock = TickingClock()
    let configuration = ServerConfiguration(clock: { clock.now() })
    let names = ["phone", "laptop", "tablet"]
    let secrets = try await tokens(storage, devices: names)
    try await withServer(storage, configuration: configuration) { url, _ in
      let kitchen = Devices()
      let (before, time, recipeID) = try await onThread {
        let devices = try secrets.enumerated().map { index, secret in
          try Device(
            names[index], cloud: HTTPCloud(url: url, token: secret, household: "Smith", timeout: .seconds(10)), clock: clock,
            seed: UInt64(index + 1))
        }
        kitchen.all = devices
        let phone = devices[0].library
        _ = try phone.categories.getOrCreate("Produce")
        _ = try phone.categories.getOrCreate("Dairy")
        _ = try phone.ingredients.getOrCreate("basil", category: "produce")
        _ = try phone.recipes.create(RecipeDraft(name: "Tomato Pasta", ingredients: ["2 tomatoes", "200 g pasta", "basil"]))
        for device in devices + devices { try device.engine.sync() }
        let before = try Self.rows(devices[0])
        #expect(before.count >= 7, "categories, templates, a recipe and its lines")
        for device in devices { #expect(try Self.rows(device) == before, "\(device.name) before the delete") }
        let recipeID = try #require(try phone.recipes.all().first?.id)
        // T lies after every write so far and before the delete.
        clock.advance(milliseconds: 1_000)
        let time = clock.now()
        clock.advance(milliseconds: 1_000)

        let laptop = devices[1].library
        for recipe in try laptop.recipes.all() { _ = try laptop.recipes.delete(recipe.id.uuidString) }
        for template in try laptop.ingredients.all() { _ = try laptop.ingredients.delete(template.id.uuidString) }
        for category in try laptop.categories.all() { _ = try laptop.categories.delete(category.id.uuidString) }
        for device in devices + devices { try device.engine.sync() }
        for device in devices { #expect(try Self.rows(device).isEmpty, "\(device.name) after the delete") }
        for device in devices { #expect(try device.engine.clockOffset() == 0, "\(device.name) stamps on the test's clock") }
        clock.advance(milliseconds: 1_000)
        return (before, time, recipeID)
      }
      switch restorer {
      case .device:
        try await onThread {
          let devices = kitchen.all
          let tablet = devices[2]
          let plan = try PointInTime.plan(before: time, in: tablet.store, now: clock.now())
          #expect(plan.restored == before.count && plan.notKept.isEmpty, "\(plan.summary)")
          try PointInTime.apply(plan, to: tablet.store, now: clock.now())
          #expect(try Self.rows(tablet) == before, "the tablet shows everything again at once")
          for device in devices + devices { try device.engine.sync() }
          for device in devices { #expect(try Self.rows(device) == before, "\(device.name) after the restore") }
          // A change made after the restore merges by the usual rules on every device.
          _ = try devices[1].library.categories.rename("Dairy", to: "Milk & Eggs")
          for device in devices + devices { try device.engine.sync() }
          let renamed = try Self.rows(devices[1])
          #expect(renamed.count == before.count && renamed != before)
          for device in devices { #expect(try Self.rows(device) == renamed, "\(device.name) after a later rename") }
        }
      case .server:
        // `forager-server restore-household Smith --before T [--apply]` runs this.
        let admin = Administration(storage: storage, configuration: configuration)
        let dryRun = try await admin.restoreHousehold("Smith", before: time, apply: false)
        #expect(dryRun.writeCount > 0 && dryRun.sequence == nil, "\(dryRun.summary)")
        let restored = try await admin.restoreHousehold("Smith", before: time, apply: true)
        #expect(
          restored.sequence != nil && restored.summary.first?.hasPrefix("\(before.count) deleted") == true, "\(restored.summary)")
        try await onThread {
          let devices = kitchen.all
          for device in devices + devices { try device.engine.sync() }
          for device in devices {
            #expect(try Self.rows(device) == before, "\(device.name) after the operator's restore")
            // The recipe's history names the operator's device as the one that brought it back.
            let registry = try device.engine.cloud.devices()
            let operatorDevice = try #require(registry.first { $0.name == Administration.restoreDeviceName })
            let changes = try RecordHistory.changes(of: .recipe, id: recipeID, in: device.store)
            #expect(
              changes.contains {
                $0.replica == operatorDevice.replicaID && $0.field == RecordHistory.existsField && $0.new == .bool(true)
              }, "\(device.name): \(changes.map { "\($0.replica) \($0.field) \($0.new)" })")
          }
        }
        // A device that starts over from the log shows the same.
        let newcomer = try await tokens(storage, devices: ["new phone"])
        try await onThread {
          let device = try Device(
            "new phone", cloud: HTTPCloud(url: url, token: newcomer[0], household: "Smith", timeout: .seconds(10)), clock: clock, seed: 9)
          try device.engine.sync()
          #expect(try Self.rows(device) == before, "a new device after the operator's restore")
        }
      }
    }
  }

  @Test(arguments: Restorer.allCases)
  func aDeviceDeletesEverythingAndARestoreBringsItBackOnEveryDevice(_ restorer: Restorer) async throws {
    try await Self.deleteEverythingThenRestore(MemoryHouseholdStorage(), by: restorer)
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), arguments: Restorer.allCases)
  func aDeviceDeletesEverythingAndARestoreBringsItBackOnEveryDeviceOnPostgres(_ restorer: Restorer) async throws {
    try await withPostgres { _, storage, _ in try await Self.deleteEverythingThenRestore(storage, by: restorer) }
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
