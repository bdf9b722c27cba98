import BenchBaselines
import Foundation
import Model
import Normalization
import Persistence
import PersistenceSQLite
import Repositories
import Sync
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

  /// Live records of a kind sharing a semantic key (must be none after sync).
  func duplicateGroups() throws -> Int { try library.duplicates(of: [.ingredientTemplate, .category]).count }
}

enum SyncScenarios {
  static let twoDevices = Scenario(
    id: "sync", title: "two devices, local changes each, full sync incl. dedup", target: "≤ 3× the sync floor and < 0.6 s total",
    parameters: ["sync.changes", "sync.duplicates"]
  ) { context in
    let changes = context.sizes["sync.changes"], duplicates = min(context.sizes["sync.duplicates"], changes / 2)
    var totals: [Double] = [], floors: [Double] = [], steps: [String: [Double]] = [:]
    var merges = 0, floorRows = 0
    for round in 0..<context.wholeRounds {
      let cloud = try SQLiteCloud(path: context.path("cloud-\(round).sqlite"))
      let a = try Device("A", path: context.path("a-\(round).sqlite"), cloud: cloud)
      let b = try Device("B", path: context.path("b-\(round).sqlite"), cloud: cloud)
      // A: `changes` templates, half of them names B creates too (same name-based id:
      // a field merge), the rest its own. B: the same, except that `duplicates` of its
      // records start under other names and are renamed onto A's names: different ids,
      // one key — true duplicates the sync must merge (keeper rule, redirects).
      try a.library.transaction { tx in
        for index in 0..<changes {
          let name = index < changes / 2 ? Names.template(index, prefix: "shared") : Names.template(index, prefix: "alpha")
          _ = try tx.ingredients.getOrCreate(name, kind: .herb)
        }
      }
      try b.library.transaction { tx in
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
      a.store.waitForCheckpoint()
      b.store.waitForCheckpoint()
      let floor = try SyncFloor.Snapshot(
        files: [a.store.path, b.store.path, context.path("cloud-\(round).sqlite")], copiesIn: context.directory)
      let first = try time { try a.engine.sync() }
      let second = try time { merges = try b.engine.sync().merges }
      let third = try time { try a.engine.sync() }
      a.store.waitForCheckpoint()
      b.store.waitForCheckpoint()
      let replayed = try floor.replay()
      floors.append(replayed.seconds)
      floorRows = replayed.rows
      let settle = try time { _ = try b.engine.sync() }
      totals.append(first + second + third)
      steps["A push", default: []].append(first)
      steps["B pull+push", default: []].append(second)
      steps["A pull", default: []].append(third)
      steps["settle (extra B sync)", default: []].append(settle)
      let counts = (try a.library.counts()[.ingredientTemplate], try b.library.counts()[.ingredientTemplate])
      guard counts.0 == counts.1, try a.duplicateGroups() == 0, try b.duplicateGroups() == 0 else {
        throw BenchError("devices did not converge: \(counts)")
      }
    }
    var result = ScenarioResult(context)
    result.compare(totals, floors)
    for (name, samples) in steps { result.figures[name] = Stats(samples).median }
    result.figures["merges count"] = Double(merges)
    result.figures["floor rows written count"] = Double(floorRows)
    result.judge((result.ratio ?? .infinity) <= 3 && (result.forager?.median ?? .infinity) < 0.6)
    result.note =
      "SQLiteCloud file; total = A sync (push) + B sync (pull, merge, dedup, push) + A sync (pull); converged and duplicate-free checked after. "
      + "Baseline: the sync floor, the rows those syncs wrote to the three files written again into copies of them, one prepared transaction per file"
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
    target: "pull ≤ 2× its floor, < 2 s for 100k; peak RSS < 250 MB",
    parameters: ["memory.changes"]
  ) { context in
    let count = context.sizes["memory.changes"]
    var floors: [Double] = [], pushes: [Double] = [], pulls: [Double] = []
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
      let floor = try SyncFloor.Snapshot(files: [b.store.path, context.path("cloud-\(round).sqlite")], copiesIn: context.directory)
      let pull = try time { try b.engine.sync() }
      // The first round's peak: the floor's reading of the files (after it) holds every row.
      if round == 0 { afterPull = Memory.peakResidentMiB() }
      guard try b.library.counts()[.ingredientTemplate] == count else { throw BenchError("B did not receive every record") }
      b.store.waitForCheckpoint()
      floors.append(try floor.replay().seconds)
      pushes.append(push)
      pulls.append(pull)
      try a.store.close()
      try b.store.close()
    }
    var result = ScenarioResult(context)
    result.compare(pulls, floors)
    result.figures["push"] = Stats(pushes).median
    result.figures["peak before sync MiB"] = beforeSync
    result.figures["peak after push MiB"] = afterPush
    result.figures["peak after pull MiB"] = afterPull
    let pullMedian = result.forager?.median ?? .infinity
    result.judge((result.ratio ?? .infinity) <= 2 && afterPull * 1.048_576 < 250 && (count < 100_000 || pullMedian < 2))
    result.note =
      "A creates the records (one transaction) and pushes them; B, new, pulls them all (timed). Baseline: the pull's floor, the rows it wrote "
      + "to B and the cloud written again into copies of them, one prepared transaction per file. Peaks from the first round, before the floor reads the files"
    return result
  }
}
