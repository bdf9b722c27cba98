import BenchBaselines
import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import SyncSQLite

/// `restore --before T` after a delete-all: a kitchen of categories and ingredient
/// templates, synced, deleted by one transaction of the repositories and synced again, is
/// restored to before the delete (the plan from the states and the history, applied in one
/// transaction). The baseline writes the same records into a fresh store through the store
/// writer, one transaction.
enum RestoreScenario {
  static let scenario = Scenario(
    id: "restore", title: "restore a kitchen to before a delete-all (restore --before T)",
    target: "100k records restored < 30 s, peak RSS < 500 MB",
    parameters: ["restore.records"]
  ) { context in
    let records = context.sizes["restore.records"]
    let categories = max(1, records / 100)
    let cloud = try SQLiteCloud(path: context.path("cloud.sqlite"))
    let store = try SQLiteStore(path: context.path("kitchen.sqlite"))
    let engine = SyncEngine(store: store, cloud: cloud, deviceName: "kitchen")
    let library = Library(store: store)
    // The history keeps every record's creation and delete: at the standard bounds (100k
    // entries in all) a delete-all of 100k records drops the creations, and the records are
    // left for history not kept (Docs/SYNC.md, "History").
    try HistoryBounds(perRecord: HistoryBounds.standard.perRecord, total: max(HistoryBounds.standard.total, 3 * records))
      .save(in: store)
    try library.transaction { tx in
      for index in 0..<categories { _ = try tx.categories.getOrCreate(Names.template(index, prefix: "aisle")) }
      for index in 0..<(records - categories) {
        _ = try tx.ingredients.getOrCreate(Names.template(index), category: Names.template(index % categories, prefix: "aisle"))
      }
    }
    try engine.sync()
    let kitchen = try store.read { reader in
      try [EntityKind.category, .ingredientTemplate].flatMap { try reader.fetch(RecordQuery($0, sort: [])) }
    }
    guard kitchen.count == records else { throw BenchError("the kitchen holds \(kitchen.count) records, not \(records)") }
    // T between the last write and the delete, on the store's clock.
    Thread.sleep(forTimeInterval: 0.01)
    let beforeDelete = Date()
    Thread.sleep(forTimeInterval: 0.01)
    try library.transaction { tx in
      for template in try tx.ingredients.all() { _ = try tx.ingredients.delete(template.id.uuidString) }
      for category in try tx.categories.all() { _ = try tx.categories.delete(category.id.uuidString) }
    }
    try engine.sync()
    guard try library.counts().values.reduce(0, +) == 0 else { throw BenchError("the delete-all left records") }

    SnapshotScenario.resetPeak()
    var plan: PointInTime.Plan?
    let restore = try time {
      let made = try PointInTime.plan(before: beforeDelete, in: store, now: Date())
      try PointInTime.apply(made, to: store, now: Date())
      plan = made
    }
    let peak = Memory.peakResidentMiB()
    let counts = try library.counts()
    guard counts[.category] == categories, counts[.ingredientTemplate] == records - categories else {
      throw BenchError("the restore shows \(counts), not \(categories) categories and \(records - categories) templates")
    }
    // The baseline: the same rows written into a fresh store by its writer.
    let fresh = try SQLiteStore(path: context.path("baseline.sqlite"))
    let baseline = try time {
      try fresh.write { writer in
        for record in kitchen { try writer.insertRecord(record) }
      }
    }
    var result = ScenarioResult(context)
    result.compare([restore], [baseline])
    result.figures["record count"] = Double(records)
    result.figures["registers written count"] = Double(plan?.writeCount ?? 0)
    result.figures["restored count"] = Double(plan?.restored ?? 0)
    result.peakResidentMiB = peak
    result.judge(restore < 30 && peak * 1.048_576 < 500)
    result.note =
      "history bounds raised to \(max(HistoryBounds.standard.total, 3 * records)) entries in all; \(categories) categories and \(records - categories) templates, synced through a SQLite cloud, deleted in one transaction and synced; "
      + "timed: PointInTime.plan (states and history read back to T) and apply (one transaction). One round. The peak is reset "
      + "(clear_refs) before the restore. Baseline: the same rows inserted into a fresh store by its writer, one transaction"
    return result
  }
}
