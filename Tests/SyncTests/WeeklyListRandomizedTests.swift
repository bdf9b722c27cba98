import Foundation
import Model
import Repositories
import TestSupport
import Testing

/// Seeded random work on weekly lists alone — lists made, renamed onto another name of their
/// week, deleted and made again, items added, checked and removed, lists completed — on 3–5
/// devices with offline periods and interrupted syncs (the worlds of
/// ``RandomizedConvergenceTests``, on both backends by the seed's parity). After a final
/// sync every invariant holds: one live list per week and name, every item on a live list or
/// gone with its list, every device showing the same.
@Suite("Randomized weekly lists")
struct WeeklyListRandomizedTests {
  static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6]

  @Test(arguments: seeds)
  func weeklyListsConvergeAfterRandomWork(seed: UInt64) throws {
    let world = try RandomizedConvergenceTests.run(seed: seed, operations: 600, step: Self.work)
    // Checked here without the key functions: no week shows two lists whose names differ
    // only in case and spacing, and the schedule did make lists.
    for device in world.devices {
      let shown = try device.library.lists.all().map {
        $0.weekIdentifier + "|" + $0.displayName.lowercased().trimmingCharacters(in: .whitespaces)
      }
      #expect(!shown.isEmpty && Set(shown).count == shown.count, "seed \(seed), \(device.name): \(shown)")
    }
  }

  /// One step: names that fold alike ("Weekly", " weekly"), two weeks, a few foods.
  static func work(_ device: SyncWorld.Device, _ world: SyncWorld, _ s: inout RandomizedConvergenceTests.Schedule) throws {
    let names = ["Weekly", " weekly", "Costco", "COSTCO", "Market"]
    let weeks = ["2024-W50", "2024-W51"]
    let foods = ["milk", "egg", "bread", "rice"]
    let lists = device.library.lists
    func named(_ s: inout RandomizedConvergenceTests.Schedule) -> String { "\(s.pick(weeks)) \(s.pick(names))" }
    switch s.next() % 11 {
    case 0, 1:
      s.created(try lists.create(s.pick(names), week: s.pick(weeks)))
    case 2:
      _ = try lists.rename(named(&s), to: s.pick(names))
    case 3:
      s.deleted(try lists.delete(named(&s)))
    case 4, 5:
      s.created(try lists.addItem(s.pick(foods), quantity: "\(1 + s.next() % 3)", to: named(&s)))
    case 6:
      _ = try lists.check(s.pick(foods), on: named(&s), done: s.next() % 2 == 0)
    case 7:
      for item in try lists.removeItem(s.pick(foods), from: named(&s)) { s.deleted(item) }
    case 8:
      _ = try lists.complete(named(&s), done: s.next() % 2 == 0)
    case 9:
      RandomizedConvergenceTests.toggleOffline(device, world)
    default:
      try RandomizedConvergenceTests.syncIfOnline(device, world) { s.next() % 3 == 0 }
    }
  }
}
