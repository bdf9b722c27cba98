import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// Seeded random schedules of operations, offline periods, interrupted syncs and sync
/// orders over 3–5 devices; after a final full sync every invariant must hold. A failure
/// prints its seed; replay it with FORAGER_SIM_SEEDS=<seed>. A long run:
/// `FORAGER_SIM_SEEDS=1-1000 FORAGER_SIM_OPS=1000 swift test --filter RandomizedConvergence`
/// (10⁶ operations per schedule; Docs/SYNC.md reports the last one).
@Suite("Randomized convergence")
struct RandomizedConvergenceTests {
  static var seeds: [UInt64] {
    guard let text = ProcessInfo.processInfo.environment["FORAGER_SIM_SEEDS"] else { return [1, 2, 3, 4] }
    let bounds = text.split(separator: "-").compactMap { UInt64($0) }
    if bounds.count == 2 { return Array(bounds[0]...bounds[1]) }
    return text.split(separator: ",").compactMap { UInt64($0) }
  }

  static var operations: Int { ProcessInfo.processInfo.environment["FORAGER_SIM_OPS"].flatMap(Int.init) ?? 1_500 }

  /// 3–5 devices on one of the two backends, with random pull page and push batch sizes,
  /// all drawn from the seed's generator.
  static func world(seed: UInt64, _ random: inout SeededGenerator) throws -> SyncWorld {
    let backend: TestBackend = seed % 2 == 0 ? .sqlite : .memory
    let deviceCount = 3 + Int(random.next() % 3)
    return try SyncWorld(
      backend, devices: (0..<deviceCount).map { "D\($0)" }, pullPageSize: 1 + Int(random.next() % 8),
      pushBatchSize: 1 + Int(random.next() % 50),
      seed: seed
    )
  }

  /// One seed's run: what its steps draw, and the records users created and deleted.
  struct Schedule {
    var random: SeededGenerator
    var check = ConvergenceCheck()

    mutating func next() -> UInt64 { random.next() }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    /// Notes a record a user created (or got), for invariant 4.
    mutating func created(_ entity: some Entity) { check.created.insert(RecordRef(type(of: entity).kind, entity.id)) }
    /// Notes a record a user deleted.
    mutating func deleted(_ entity: some Entity) { check.userDeleted.insert(RecordRef(type(of: entity).kind, entity.id)) }
  }

  /// Runs a seed: its world, `operations` steps each on a random device (a user operation
  /// the repositories refuse is part of the workload), then the convergence check.
  @discardableResult
  static func run(
    seed: UInt64, operations: Int = Self.operations, step: (SyncWorld.Device, SyncWorld, inout Schedule) throws -> Void
  ) throws -> SyncWorld {
    let (world, check) = try play(seed: seed, operations: operations, step: step)
    try checkConvergence(world, seed: seed, check)
    return world
  }

  /// Plays a seed's schedule without checking its end: the world, and what users created
  /// and deleted. Every sync in it holds the device to the reference view
  /// (``SyncWorld/viewProblems``).
  /// - Parameter stop: ends the schedule early when it holds after a step.
  static func play(
    seed: UInt64, operations: Int, step: (SyncWorld.Device, SyncWorld, inout Schedule) throws -> Void,
    stop: (SyncWorld) -> Bool = { _ in false }
  ) throws -> (world: SyncWorld, check: ConvergenceCheck) {
    var schedule = Schedule(random: SeededGenerator(seed: seed))
    let world = try Self.world(seed: seed, &schedule.random)
    for _ in 0..<operations where !stop(world) {
      let device = schedule.pick(world.devices)
      do {
        try step(device, world, &schedule)
      } catch is RepositoryError {
        // Refused user operations (collisions, unknown names) are part of the workload.
      }
    }
    return (world, schedule.check)
  }

  /// Takes the device offline or back online.
  static func toggleOffline(_ device: SyncWorld.Device, _ world: SyncWorld) {
    if world.offline.contains(device.name) { world.offline.remove(device.name) } else { world.offline.insert(device.name) }
  }

  /// Syncs the device when it is online, interrupted after one pulled page when
  /// `interrupt` (drawn only then) says so.
  static func syncIfOnline(_ device: SyncWorld.Device, _ world: SyncWorld, interrupt: () -> Bool) throws {
    guard !world.offline.contains(device.name) else { return }
    do { try world.sync(device, interruptAfterPulledPages: interrupt() ? 1 : nil) } catch is SyncInterrupted {}
  }

  @Test(arguments: seeds)
  func devicesConvergeAfterRandomWork(seed: UInt64) throws {
    try Self.run(seed: seed, step: Self.work)
  }

  /// The same schedules with the reverse merge edges read keeper by keeper once a store
  /// holds any (as a store with more than `StateStore.defaultEagerEdgeLimit` does), instead
  /// of all at the start of each transaction: every check still holds.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func devicesConvergeWithEdgesReadKeeperByKeeper(seed: UInt64) throws {
    let world = try StateStore.$eagerEdgeLimit.withValue(0) { try Self.run(seed: seed, step: Self.widerWork) }
    let counts = try world.devices.map { device in
      try device.store.read { try $0.metadata(forKey: ReplicaKeys.edgeCount).flatMap(Int.init) ?? 0 }
    }
    #expect(counts.contains { $0 > 0 }, "seed \(seed): the schedule merged nothing, so no edge was read lazily")
  }

  /// Seeds that found bugs in the earlier merge, which folded arriving changes into
  /// keepers one at a time, at the 3,000 operations they failed with: 40, 15, 111, 85,
  /// 126, 311, 143, 239 and 445 were fixed one by one; 570 was open (a field one second
  /// apart on one device). Both schedules run each. Ids now come from the seed, so these
  /// are not the exact schedules that failed then, but the same seeds' draws of steps,
  /// devices, names and sync orders.
  static let seedsThatFoundBugs: [UInt64] = [15, 40, 85, 111, 126, 143, 239, 311, 445, 570]

  @Test(arguments: seedsThatFoundBugs)
  func seedsThatFoundBugsConverge(seed: UInt64) throws {
    try Self.run(seed: seed, operations: 3_000, step: Self.work)
    try Self.run(seed: seed, operations: 3_000, step: Self.widerWork)
  }

  /// Seeds of the long run (1,000 operations) on which two devices ended showing
  /// different planned meals for one slot: a meal that was one entity with another by its
  /// slot was not computed again when its own recipe was deleted, because the entity's row
  /// showed the other meal's recipe (Docs/SYNC.md, "Planned meals that share a slot").
  static let seedsThatSplitPlannedMeals: [(seed: UInt64, wider: Bool)] = [
    (130, false), (212, false), (255, false), (317, false), (405, false), (608, false), (620, false),
    (631, false), (715, false), (866, false), (991, false), (811, true), (824, true), (968, true),
  ]

  @Test(arguments: seedsThatSplitPlannedMeals.indices)
  func plannedMealsOfOneSlotConverge(index: Int) throws {
    let (seed, wider) = Self.seedsThatSplitPlannedMeals[index]
    try Self.run(seed: seed, operations: 1_000, step: wider ? Self.widerWork : Self.work)
  }

  /// One step of the first schedule.
  static func work(_ device: SyncWorld.Device, _ world: SyncWorld, _ s: inout Schedule) throws {
    let names = ["Produce", "Dairy", "Bakery", "Pantry", "Frozen", "Veg", "Fruit", "Snacks"]
    let foods = ["tomato", "basil", "egg", "milk", "rice", "onion", "garlic", "apple", "lemon", "pepper"]
    let recipes = ["Soup", "Pasta", "Salad", "Curry", "Tacos"]
    let dates = ["2024-12-13", "2024-12-14", "2024-12-15"]
    let meals = ["lunch", "dinner"]
    do {
      let library = device.library
      switch s.next() % 14 {
      case 0, 1:
        s.created(try library.categories.getOrCreate(s.pick(names)))
      case 2:
        _ = try library.categories.rename(s.pick(names), to: s.pick(names))
      case 3:
        s.deleted(try library.categories.delete(s.pick(names)))
      case 4, 5:
        s.created(try library.ingredients.getOrCreate(s.pick(foods), category: s.pick(names)))
      case 6:
        let draft = RecipeDraft(name: s.pick(recipes), ingredients: [s.pick(foods), "2 \(s.pick(foods))"])
        if case .created(let recipe) = try library.recipes.create(draft, allowSimilar: s.next() % 4 == 0) {
          s.created(recipe)
        }
      case 7:
        s.created(try library.meals.plan(date: s.pick(dates), mealType: s.pick(meals), recipe: s.pick(recipes)).meal)
      case 8:
        s.deleted(try library.recipes.delete(s.pick(recipes)))
      case 9:
        if try library.lists.all().isEmpty { s.created(try library.lists.create("Groceries", week: "2024-W50")) }
        if let list = try library.lists.all().first {
          s.created(try library.lists.addItem(s.pick(foods), quantity: "1", to: list.id.uuidString))
        }
      case 10:
        _ = try library.recipes.update(s.pick(recipes), [.cuisine(s.pick(["Italian", "French", "Thai"]))])
      case 11:
        Self.toggleOffline(device, world)
      case 12:
        try Self.syncIfOnline(device, world) { s.next() % 3 == 0 }
      default:
        s.created(try library.tags.getOrCreate(s.pick(["quick", "vegan", "Quick"])))
      }
    }
  }

  /// The same schedule with every kind of user operation the repositories offer:
  /// ingredient renames, aliases, categories and deletes, recipe tags, books, renames and
  /// merges, unplanned meals, tag renames and deletes, list items added from recipes,
  /// checked and removed. Seeds as above; its own test, so that the seeds of the first
  /// one keep replaying the schedules their fixes were found with.
  @Test(arguments: seeds)
  func devicesConvergeAfterWiderRandomWork(seed: UInt64) throws {
    try Self.run(seed: seed, step: Self.widerWork)
  }

  /// One step of the wider schedule.
  static func widerWork(_ device: SyncWorld.Device, _ world: SyncWorld, _ s: inout Schedule) throws {
    let names = ["Produce", "Dairy", "Bakery", "Pantry", "Frozen", "Veg"]
    let foods = ["tomato", "basil", "egg", "milk", "rice", "onion", "garlic", "lemon"]
    let recipes = ["Soup", "Pasta", "Salad", "Curry", "Tacos"]
    let tags = ["quick", "vegan", "Quick", "family"]
    let books = ["Salt Fat Acid Heat", "Jerusalem"]
    let dates = ["2024-12-13", "2024-12-14"]
    let meals = ["lunch", "dinner"]
    do {
      let library = device.library
      switch s.next() % 24 {
      case 0, 1: s.created(try library.categories.getOrCreate(s.pick(names)))
      case 2: _ = try library.categories.rename(s.pick(names), to: s.pick(names))
      case 3: s.deleted(try library.categories.delete(s.pick(names)))
      case 4, 5: s.created(try library.ingredients.getOrCreate(s.pick(foods), category: s.pick(names)))
      case 6: _ = try library.ingredients.rename(s.pick(foods), to: s.pick(foods))
      case 7: s.deleted(try library.ingredients.delete(s.pick(foods)))
      case 8: _ = try library.ingredients.addAlias(s.pick(["toms", "eggs", "basilico", "paddy"]), to: s.pick(foods))
      case 9: _ = try library.ingredients.setCategory(s.pick(names), for: s.pick(foods))
      case 10, 11:
        let draft = RecipeDraft(
          name: s.pick(recipes), ingredients: [s.pick(foods), "2 \(s.pick(foods))"], tags: [s.pick(tags)],
          book: s.next() % 3 == 0 ? s.pick(books) : nil
        )
        if case .created(let recipe) = try library.recipes.create(draft, allowSimilar: s.next() % 4 == 0) {
          s.created(recipe)
        }
      case 12: s.created(try library.meals.plan(date: s.pick(dates), mealType: s.pick(meals), recipe: s.pick(recipes)).meal)
      case 13: s.deleted(try library.meals.unplan(date: s.pick(dates), mealType: s.pick(meals)))
      case 14: s.deleted(try library.recipes.delete(s.pick(recipes)))
      case 15: _ = try library.recipes.merge(s.pick(recipes), into: s.pick(recipes))
      case 16: _ = try library.recipes.rename(s.pick(recipes), to: s.pick(recipes))
      case 17:
        let tag = s.pick(tags)
        _ = try library.recipes.update(s.pick(recipes), [s.next() % 2 == 0 ? .addTags([tag]) : .removeTags([tag])])
      case 18: s.created(try library.tags.getOrCreate(s.pick(tags)))
      case 19: _ = try library.tags.rename(s.pick(tags), to: s.pick(tags))
      case 20: s.deleted(try library.tags.delete(s.pick(tags)))
      case 21:
        if try library.lists.all().isEmpty { s.created(try library.lists.create("Groceries", week: "2024-W50")) }
        guard let list = try library.lists.all().first?.id.uuidString else { break }
        switch s.next() % 4 {
        case 0: s.created(try library.lists.addItem(s.pick(foods), quantity: "1", to: list))
        case 1: _ = try library.lists.addRecipe(s.pick(recipes), to: list)
        case 2: _ = try library.lists.check(s.pick(foods), on: list)
        default: for item in try library.lists.removeItem(s.pick(foods), from: list) { s.deleted(item) }
        }
      default:
        // Both drawn before either is used, as the long runs of this schedule did.
        let interrupt = s.next() % 3 == 0
        if s.next() % 2 == 0 {
          try Self.syncIfOnline(device, world) { interrupt }
        } else {
          Self.toggleOffline(device, world)
        }
      }
    }
  }

  /// After every device is back online and synced until nothing changes, every
  /// invariant of ``ConvergenceCheck`` holds: the devices agree field by field on every
  /// kind, keys are unique, references resolve, and every record a user created is live
  /// or was superseded by a user's delete or merge; and after every sync of the schedule
  /// each device's tables were the reference view of its states.
  static func checkConvergence(_ world: SyncWorld, seed: UInt64, _ check: ConvergenceCheck) throws {
    let problems = try settle(world, check)
    if ProcessInfo.processInfo.environment["FORAGER_SIM_TIMING"] != nil {
      print("seed \(seed): reference view checks took \(world.viewCheckTime)")
    }
    #expect(problems.isEmpty, "seed \(seed): \(problems.count) violations, first \(problems.prefix(5))")
    for device in world.devices {
      #expect(try device.store.liveCountMismatches() == [], "seed \(seed), \(device.name): live-record counter")
    }
  }

  /// Brings every device online and syncs until nothing moves, then lets a new device join
  /// from the whole log; returns every violation: the reference view after any sync (the
  /// new device's included), the invariants across all devices, and a new device that
  /// pushed something (it has written nothing).
  static func settle(_ world: SyncWorld, _ check: ConvergenceCheck) throws -> [String] {
    world.offline = []
    try world.syncUntilQuiet(maxRounds: 12)
    let fresh = try world.addDevice("new")
    let report = try world.sync(fresh)
    var problems = try world.invariantViolations(check)
    if report.exported > 0 { problems.append("the new device pushed \(report.exported) change(s)") }
    return problems
  }
}
