import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Weekly lists made on several devices offline for one week and name are one list after
/// sync (Docs/DESIGN.md §2), with the items of every copy; each item keeps its own check and amount.
@Suite("Weekly list identity across devices")
struct WeeklyListIdentitySyncTests {
  /// The live lists a device shows, as "week name (items)".
  private func lists(_ device: SyncWorld.Device) throws -> [String] {
    try device.library.lists.all().map { list in
      "\(list.weekIdentifier) \(list.displayName) (\(try device.library.lists.items(of: list.id.uuidString).count))"
    }
  }

  @Test(arguments: TestBackend.allCases)
  func threeDevicesThatEachMakeWeeklyOfflineEndWithOneListHoldingEveryItem(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B", "C"])
    world.offline = ["A", "B", "C"]
    for (device, spelling, item) in [("A", "Weekly", "2 l milk"), ("B", "weekly", "6 eggs"), ("C", " WEEKLY ", "1 l milk")] {
      _ = try world[device].library.lists.create(spelling, week: "2024-W50")
      _ = try world[device].library.lists.addItem(item, to: "Weekly")
      _ = try world[device].library.lists.addItem("bread", to: "weekly")
    }
    _ = try world["A"].library.lists.check("milk", on: "Weekly")
    world.offline = []
    try world.syncUntilQuiet()
    let shown = try lists(world["A"])
    #expect(shown.count == 1 && shown[0].hasSuffix("(6)"), "\(shown)")
    for device in world.devices {
      #expect(try lists(device) == shown, "\(device.name)")
      // Each item keeps its own check: A's milk is done, C's is not.
      let milk = try device.library.lists.items(of: "Weekly").filter { $0.displayName == "milk" }
      #expect(milk.map(\.isCompleted).sorted { !$0 && $1 } == [false, true], "\(device.name)")
    }
    // `list add … to Weekly` finds the one list on every device.
    _ = try world["B"].library.lists.addItem("butter", to: "Weekly")
    _ = try world["C"].library.lists.check("milk", on: "weekly")
    try world.syncUntilQuiet()
    for device in world.devices {
      let items = try device.library.lists.items(of: "Weekly")
      #expect(items.count == 7, "\(device.name)")
      #expect(items.filter { $0.displayName == "milk" }.allSatisfy { $0.isCompleted }, "\(device.name)")
      let line = try device.library.lists.shoppingList("Weekly", units: .metric, includeDone: true).aisles.flatMap(\.lines).first {
        $0.name == "milk"
      }
      #expect(line?.amountText == "3 l", "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func listsWithOtherIdsThatCometoShareAWeekAndNameAreOneList(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    world.offline = ["A", "B"]
    // A's list gets its id from another name, then takes B's list's name: two ids, one key.
    let shop = try world["A"].library.lists.create("Shop", week: "2024-W50")
    _ = try world["A"].library.lists.addItem("eggs", to: "Shop")
    _ = try world["A"].library.lists.rename("Shop", to: "Weekly")
    let weekly = try world["B"].library.lists.create("Weekly", week: "2024-W50")
    _ = try world["B"].library.lists.addItem("milk", to: "Weekly")
    #expect(shop.id != weekly.id)
    world.offline = []
    try world.syncUntilQuiet()
    let keeper = [shop.id, weekly.id].sorted(by: UUID.keeperOrder)[0]
    for device in world.devices {
      #expect(try device.library.lists.all().map(\.id) == [keeper], "\(device.name)")
      #expect(Set(try device.library.lists.items(of: "Weekly").map(\.displayName)) == ["eggs", "milk"], "\(device.name)")
    }
    // The entity is one for good: an edit on either device applies to all of it.
    _ = try world["B"].library.lists.addItem("bread", to: "Weekly")
    _ = try world["A"].library.lists.complete("Weekly")
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(try device.library.lists.items(of: "Weekly").count == 3, "\(device.name)")
      #expect(try device.library.lists.find("Weekly")?.isCompleted == true, "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }

  @Test(arguments: TestBackend.allCases)
  func otherNamesAndOtherWeeksStayListsOfTheirOwn(_ backend: TestBackend) throws {
    let world = try SyncWorld(backend, devices: ["A", "B"])
    world.offline = ["A", "B"]
    _ = try world["A"].library.lists.create("Costco", week: "2024-W50")
    _ = try world["B"].library.lists.create("Farmers market", week: "2024-W50")
    _ = try world["A"].library.lists.create("Weekly", week: "2024-W50")
    _ = try world["B"].library.lists.create("Weekly", week: "2024-W51")
    world.offline = []
    try world.syncUntilQuiet()
    for device in world.devices {
      #expect(
        try lists(device) == ["2024-W51 Weekly (0)", "2024-W50 Costco (0)", "2024-W50 Farmers market (0)", "2024-W50 Weekly (0)"],
        "\(device.name)")
    }
    #expect(try world.invariantViolations() == [])
  }
}
