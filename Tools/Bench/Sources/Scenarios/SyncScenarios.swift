import BenchBaselines
import Foundation
import Model
import Normalization
import Persistence
import PersistenceMemory
import PersistenceSQLite
import Repositories
import Sync
import SyncMemory
import SyncSQLite

/// A device: its own SQLite store and a sync engine on the shared cloud.
private struct Device {
  let store: SQLiteStore
  let library: Library
  let engine: SyncEngine

  init(_ name: String, path: String, cloud: any CloudStore) throws {
    store = try SQLiteStore(path: path)
    library = Library(store: store)
    engine = SyncEngine(store: store, cloud: cloud, deviceName: name)
  }
}

/// Throws unless two devices that synced hold the same number of templates and neither has
/// live records of a kind sharing a semantic key.
private func checkConverged(_ a: Library, _ b: Library, _ devices: String) throws {
  let counts = (try a.counts()[.ingredientTemplate], try b.counts()[.ingredientTemplate])
  let duplicates = try [a, b].map { try $0.duplicates(of: [.ingredientTemplate, .category]).count }
  guard counts.0 == counts.1, duplicates == [0, 0] else {
    throw BenchError("\(devices) did not converge: templates \(counts), duplicate groups \(duplicates)")
  }
}

/// The `sync` scenario's two devices' local changes, on any store: A creates `changes`
/// templates, half of them names B creates too (same name-based id: a field merge), the
/// rest its own. B: the same, except that `duplicates` of its records start under other
/// names and are renamed onto A's names: different ids, one key — true duplicates the sync
/// must merge (keeper rule, redirects).
private func makeTwoDeviceChanges(a: Library, b: Library, changes: Int, duplicates: Int) throws {
  try a.transaction { tx in
    for index in 0..<changes {
      let name = index < changes / 2 ? Names.template(index, prefix: "shared") : Names.template(index, prefix: "alpha")
      _ = try tx.ingredients.getOrCreate(name, kind: .herb)
    }
  }
  try b.transaction { tx in
    for index in 0..<(changes - duplicates) {
      let name = index < changes / 2 - duplicates ? Names.template(index, prefix: "shared") : Names.template(index, prefix: "beta")
      _ = try tx.ingredients.getOrCreate(name, kind: .spice)
    }
    for offset in 0..<duplicates {
      let index = changes / 2 - duplicates + offset
      _ = try tx.ingredients.getOrCreate(Names.template(index, prefix: "temp"))
      _ = try tx.ingredients.rename(Names.template(index, prefix: "temp"), to: Names.template(index, prefix: "shared"))
    }
  }
}

/// The in-memory anchor of the `sync` scenario: the same changes and the same three syncs
/// with both devices on `InMemoryStore` and the cloud an `InMemoryCloud` — the same join,
/// view and dedup with no SQLite and no file. Returns the three syncs' seconds.
private func inMemoryTwoDeviceSync(changes: Int, duplicates: Int) throws -> Double {
  let cloud = InMemoryCloud()
  let stores = (InMemoryStore(), InMemoryStore())
  let libraries = (Library(store: stores.0), Library(store: stores.1))
  let engines = (
    SyncEngine(store: stores.0, cloud: cloud, deviceName: "A"), SyncEngine(store: stores.1, cloud: cloud, deviceName: "B")
  )
  try makeTwoDeviceChanges(a: libraries.0, b: libraries.1, changes: changes, duplicates: duplicates)
  let seconds = try time {
    try engines.0.sync()
    try engines.1.sync()
    try engines.0.sync()
  }
  _ = try engines.1.sync()
  try checkConverged(libraries.0, libraries.1, "the in-memory devices")
  return seconds
}

/// The in-memory anchor of the `memory` scenario: `count` templates created on an
/// `InMemoryStore` and pushed to an `InMemoryCloud` (untimed), then pulled by a new device
/// on another `InMemoryStore`; returns the pull's seconds.
private func inMemoryPull(count: Int) throws -> Double {
  let cloud = InMemoryCloud()
  let writer = InMemoryStore()
  try Library(store: writer).transaction { tx in
    for index in 0..<count { _ = try tx.ingredients.getOrCreate(Names.template(index)) }
  }
  try SyncEngine(store: writer, cloud: cloud, deviceName: "A").sync()
  let b = SyncEngine(store: InMemoryStore(), cloud: cloud, deviceName: "B")
  let seconds = try time { try b.sync() }
  guard try Library(store: b.store).counts()[.ingredientTemplate] == count else {
    throw BenchError("the in-memory device did not receive every record")
  }
  return seconds
}

enum SyncScenarios {
  static let twoDevices = Scenario(
    id: "sync", title: "two devices, local changes each, full sync incl. dedup", target: "≤ 2× the sync floor and < 0.6 s total",
    parameters: ["sync.changes", "sync.duplicates"]
  ) { context in
    let changes = context.sizes["sync.changes"], duplicates = min(context.sizes["sync.duplicates"], changes / 2)
    var totals: [Double] = [], floors: [Double] = [], anchors: [Double] = [], steps: [String: [Double]] = [:]
    var merges = 0, floorRows = 0
    for round in 0..<context.wholeRounds {
      let cloud = try SQLiteCloud(path: context.path("cloud-\(round).sqlite"))
      let a = try Device("A", path: context.path("a-\(round).sqlite"), cloud: cloud)
      let b = try Device("B", path: context.path("b-\(round).sqlite"), cloud: cloud)
      try makeTwoDeviceChanges(a: a.library, b: b.library, changes: changes, duplicates: duplicates)
      a.store.waitForCheckpoint()
      b.store.waitForCheckpoint()
      var floor = try SyncFloor.Snapshot(
        files: [a.store.path, b.store.path, context.path("cloud-\(round).sqlite")], copiesIn: context.directory)
      let first = try time { try a.engine.sync() }
      try floor.mark()
      let second = try time { merges = try b.engine.sync().merges }
      try floor.mark()
      let third = try time { try a.engine.sync() }
      try floor.mark()
      a.store.waitForCheckpoint()
      b.store.waitForCheckpoint()
      let replayed = try floor.replay()
      floors.append(replayed.seconds)
      floorRows = replayed.rows
      let settle = try time { _ = try b.engine.sync() }
      anchors.append(try inMemoryTwoDeviceSync(changes: changes, duplicates: duplicates))
      totals.append(first + second + third)
      steps["A push", default: []].append(first)
      steps["B pull+push", default: []].append(second)
      steps["A pull", default: []].append(third)
      steps["settle (extra B sync)", default: []].append(settle)
      try checkConverged(a.library, b.library, "the devices")
    }
    var result = ScenarioResult(context)
    result.compare(totals, floors)
    for (name, samples) in steps { result.figures[name] = Stats(samples).median }
    result.figures["merges count"] = Double(merges)
    result.figures["floor rows written count"] = Double(floorRows)
    let anchor = Stats(anchors).median
    result.figures["in-memory anchor"] = anchor
    result.figures["ratio to in-memory anchor ×"] = (result.forager?.median ?? .infinity) / max(anchor, 1e-9)
    result.judge((result.ratio ?? .infinity) <= 2 && (result.forager?.median ?? .infinity) < 0.6)
    result.note =
      "SQLiteCloud file; total = A sync (push) + B sync (pull, merge, dedup, push) + A sync (pull); converged and duplicate-free checked after. "
      + "Baseline: the sync floor, the rows each sync wrote to each file written again into copies of them, one transaction per sync and file, "
      + "each changed row read first, partial updates. In-memory anchor: the same changes and syncs on InMemoryStore and InMemoryCloud"
    return result
  }

  static let incremental = Scenario(
    id: "incremental", title: "incremental sync of changes into a large vs a small store",
    target: "large within 2× of small", parameters: ["incremental.large", "incremental.small", "incremental.changes"]
  ) { context in
    let cloud = try SQLiteCloud(path: context.path("cloud.sqlite"))
    let largeCount = context.sizes["incremental.large"], smallCount = context.sizes["incremental.small"]
    let perSync = context.sizes["incremental.changes"]
    _ = try StoreFixture.templates(at: context.path("large.sqlite"), count: largeCount)
    _ = try StoreFixture.templates(at: context.path("small.sqlite"), count: smallCount)
    let large = try Device("large", path: context.path("large.sqlite"), cloud: cloud)
    let small = try Device("small", path: context.path("small.sqlite"), cloud: cloud)
    let writer = try Device("writer", path: context.path("writer.sqlite"), cloud: cloud)
    var largeTimes: [Double] = [], smallTimes: [Double] = []
    for round in 0...context.rounds {
      // Half the changes touch records both stores hold (same names, same ids: field
      // merges), half are new records.
      try writer.library.transaction { tx in
        for offset in 0..<perSync {
          let index = round * perSync + offset
          if offset % 2 == 0 {
            _ = try tx.ingredients.getOrCreate(Names.template(index % smallCount), kind: .spice, isStaple: round % 2 == 0)
          } else {
            _ = try tx.ingredients.getOrCreate(Names.template(index, prefix: "fresh"))
          }
        }
      }
      try writer.engine.sync()
      let l = try time { try large.engine.sync() }
      let s = try time { try small.engine.sync() }
      if round > 0 {  // round 0 also pulls the writer's first state and warms up
        largeTimes.append(l)
        smallTimes.append(s)
      }
    }
    var result = ScenarioResult(context)
    result.compare(largeTimes, smallTimes)
    result.judge((result.ratio ?? .infinity) <= 2)
    result.note =
      "Forager column = the large store, baseline column = the small store (same changes, same process); each sync pulls one writer batch"
    return result
  }

  static let memory = Scenario(
    id: "memory", title: "one device pulls many changes: time against its floor, peak memory",
    target: "pull ≤ 1.5× its floor, < 2 s for 100k; peak RSS < 250 MB",
    parameters: ["memory.changes"]
  ) { context in
    let count = context.sizes["memory.changes"]
    var floors: [Double] = [], anchors: [Double] = [], pushes: [Double] = [], pulls: [Double] = []
    var beforeSync = 0.0, afterPush = 0.0, afterPull = 0.0
    // Each round a new cloud and two new stores; the peaks are the process's, so the
    // figures after the first round are the highest any round reached.
    for round in 0..<context.wholeRounds {
      let cloud = try SQLiteCloud(path: context.path("cloud-\(round).sqlite"))
      let a = try Device("A", path: context.path("a-\(round).sqlite"), cloud: cloud)
      let b = try Device("B", path: context.path("b-\(round).sqlite"), cloud: cloud)
      try a.library.transaction { tx in
        for index in 0..<count { _ = try tx.ingredients.getOrCreate(Names.template(index)) }
      }
      if round == 0 { beforeSync = Memory.peakResidentMiB() }
      let push = try time { try a.engine.sync() }
      if round == 0 { afterPush = Memory.peakResidentMiB() }
      b.store.waitForCheckpoint()
      var floor = try SyncFloor.Snapshot(files: [b.store.path, context.path("cloud-\(round).sqlite")], copiesIn: context.directory)
      let pull = try time { try b.engine.sync() }
      // The first round's peak: the floor's reading of the files (after it) holds every row.
      if round == 0 { afterPull = Memory.peakResidentMiB() }
      try floor.mark()
      guard try b.library.counts()[.ingredientTemplate] == count else { throw BenchError("B did not receive every record") }
      b.store.waitForCheckpoint()
      floors.append(try floor.replay().seconds)
      anchors.append(try inMemoryPull(count: count))
      pushes.append(push)
      pulls.append(pull)
      try a.store.close()
      try b.store.close()
    }
    var result = ScenarioResult(context)
    result.compare(pulls, floors)
    result.figures["push"] = Stats(pushes).median
    result.figures["in-memory anchor"] = Stats(anchors).median
    result.figures["ratio to in-memory anchor ×"] = (result.forager?.median ?? .infinity) / max(Stats(anchors).median, 1e-9)
    result.figures["peak before sync MiB"] = beforeSync
    result.figures["peak after push MiB"] = afterPush
    result.figures["peak after pull MiB"] = afterPull
    let pullMedian = result.forager?.median ?? .infinity
    result.judge((result.ratio ?? .infinity) <= 1.5 && afterPull * 1.048_576 < 250 && (count < 100_000 || pullMedian < 2))
    result.note =
      "A creates the records (one transaction) and pushes them; B, new, pulls them all (timed). Baseline: the pull's floor, the rows it wrote "
      + "to B and the cloud written again into copies of them, one transaction per file, each changed row read first, partial updates. "
      + "In-memory anchor: the same pull on InMemoryStore from an InMemoryCloud. Peaks from the first round, before the floor reads the files"
    return result
  }
}
