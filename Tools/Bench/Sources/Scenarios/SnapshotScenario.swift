import BenchBaselines
import Foundation
import Glibc
import Model
import PersistenceSQLite
import Repositories
import Sync
import SyncSQLite

/// A cloud on a SQLite file that serves a snapshot made from its log, as a server does:
/// the pages are kept in their binary form and decoded when asked, as a client decodes them.
private final class SnapshotServingCloud: CloudStore, @unchecked Sendable {
  let base: SQLiteCloud
  let position: Int64
  let schemaVersion: Int
  let pages: [Data]
  var location: String { base.location }
  var identifier: String { base.identifier }

  init(base: SQLiteCloud, fold: SnapshotFold, pageRecords: Int) {
    self.base = base
    position = fold.position
    schemaVersion = fold.schemaVersion
    pages = fold.pages(changesPerPage: pageRecords).map(ChangeBatchCoding.encode)
  }

  func push(_ batch: ChangeBatch) throws -> Int64 { try base.push(batch) }
  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] { try base.pull(after: sequence, limit: limit) }
  func latestSequence() throws -> Int64 { try base.latestSequence() }
  func register(_ device: CloudDevice) throws { try base.register(device) }
  func devices() throws -> [CloudDevice] { try base.devices() }
  func snapshotPage(_ page: Int, at position: Int64?) throws -> SnapshotPage? {
    guard position == nil || position == self.position, pages.indices.contains(page) else { return nil }
    return SnapshotPage(
      position: self.position, schemaVersion: schemaVersion, page: page, pageCount: pages.count,
      batch: try ChangeBatchCoding.decode(pages[page]))
  }
}

enum SnapshotScenario {
  /// Resets the process's peak resident set (VmHWM) to what it holds now (Linux: `5` to
  /// `/proc/self/clear_refs`), so a figure read after it is the peak of what follows. The
  /// memory the process freed is first handed back to the system (`malloc_trim`), so "what
  /// it holds now" is what is still in use, not what the allocator kept from earlier steps.
  static func resetPeak() {
    // glibc's `malloc_trim` (malloc.h, which Glibc's module does not export), found at run time.
    if let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") {
      _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
    }
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
  }

  static let scenario = Scenario(
    id: "snapshot", title: "a new device starts from a snapshot of a household with a long history",
    target: "ready < 10 s for 100k records, peak RSS < 250 MB; log within 3× the snapshot",
    parameters: ["snapshot.records", "snapshot.batches", "snapshot.days"]
  ) { context in
    let records = context.sizes["snapshot.records"]
    let cloudPath = context.path("cloud.sqlite")
    let cloud = try SQLiteCloud(path: cloudPath)
    let aStore = try SQLiteStore(path: context.path("a.sqlite"))
    let a = SyncEngine(store: aStore, cloud: cloud, deviceName: "A")
    try Library(store: aStore).transaction { tx in
      for index in 0..<records { _ = try tx.ingredients.getOrCreate(Names.template(index)) }
    }
    try a.sync()
    // The history: one batch per later write of a record's existence register, a record in
    // turn, each stamped later than the last (the records stay live).
    let replica = try a.replicaID()
    let ids = try Library(store: aStore).ingredients.all().map(\.id)
    let pushed = try cloud.latestSequence()
    let history = max(0, context.sizes["snapshot.batches"] - Int(pushed))
    let start = Int64(Date().timeIntervalSince1970 * 1000) - Int64(history) - 10_000
    let date = Date(timeIntervalSince1970: Double(start) / 1000)
    let buildHistory = try time {
      for index in 0..<history {
        let stamp = Stamp(time: start + Int64(index), counter: 0, replica: replica)
        let change = RecordChange(
          kind: .ingredientTemplate, id: ids[index % ids.count], createdAt: date, updatedAt: date, ownerID: replica,
          sharingScope: .private, fields: [RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp)])
        _ = try cloud.push(
          ChangeBatch(
            id: "\(replica):history-\(index)", replica: replica, schemaVersion: ChangeBatchCoding.schemaVersion, changes: [change]))
      }
    }
    let logBatches = try cloud.latestSequence()
    // The server's part: fold the whole log into a snapshot.
    var fold = SnapshotFold()
    let rules = ChangeRules(now: Date())
    let folding = try time {
      while true {
        let entries = try cloud.pull(after: fold.position, limit: 1_000)
        guard !entries.isEmpty else { break }
        for entry in entries {
          guard fold.fold(entry, rules: rules) == .folded else { throw BenchError("the fold stopped at \(entry.sequence)") }
        }
      }
    }
    let serving = SnapshotServingCloud(base: cloud, fold: fold, pageRecords: 2_000)
    fold = SnapshotFold()
    let snapshotBytes = serving.pages.reduce(0) { $0 + $1.count }
    // The cloud stays open (B pulls and registers through it): its file and write-ahead log.
    let logBytes = [cloudPath, cloudPath + "-wal"].reduce(0) { total, path in
      total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
    // The device's part, timed and its peak read from here.
    resetPeak()
    let before = Memory.peakResidentMiB()
    let bStore = try SQLiteStore(path: context.path("b.sqlite"))
    let b = SyncEngine(store: bStore, cloud: serving, deviceName: "B")
    var report = SyncEngine.Report()
    let ready = try time { report = try b.sync() }
    let peak = Memory.peakResidentMiB()
    guard report.snapshotPosition == logBatches else { throw BenchError("B did not start from the snapshot at \(logBatches)") }
    guard try Library(store: bStore).counts()[.ingredientTemplate] == records else { throw BenchError("B does not show every record") }
    // The server's part after B started: the household's storage once compacted.
    let days = context.sizes["snapshot.days"]
    let server = try ServerLoadScenario.blocking { try await compactOnServer(cloud, historySpan: Double(days) * 86_400) }
    var result = ScenarioResult(context)
    result.compare([ready], nil)
    result.figures["server fold (memory backend) s"] = server.foldSeconds
    result.figures["server batches dropped count"] = Double(server.droppedBatches)
    result.figures["server batches kept count"] = Double(server.keptBatches)
    result.figures["server after compaction MiB"] = Double(server.keptLogBytes + server.keptSnapshotBytes) / 1_048_576
    result.figures["server storage / snapshot after compaction ×"] = server.ratio
    result.figures["log batches count"] = Double(logBatches)
    result.figures["history build s"] = buildHistory
    result.figures["snapshot fold s"] = folding
    result.figures["snapshot MiB"] = Double(snapshotBytes) / 1_048_576
    result.figures["log file MiB"] = Double(logBytes) / 1_048_576
    result.figures["log / snapshot ×"] = Double(logBytes) / Double(max(1, snapshotBytes))
    result.figures["peak before start MiB"] = before
    result.figures["peak after start MiB"] = peak
    result.peakResidentMiB = peak
    result.judge(ready < 10 && peak * 1.048_576 < 250 && server.ratio <= 3)
    result.note =
      "A creates the records and pushes them, then the log grows by one-record batches to its length; the log is folded into a snapshot "
      + "(2,000 records a page, kept encoded); B, new, starts from it (timed, one transaction) and pulls nothing more. The peak is reset "
      + "(clear_refs) before B starts. log / snapshot is the cloud file without compaction. Then the server's part: the log is "
      + "copied into the server's storage code (MemoryHouseholdStorage, the rule PostgreSQL's storage runs too) as A's pushes, arrived "
      + "over \(days) days; the server makes its snapshot, A and B pull to the end, and the household is compacted with a 7-day retention "
      + "(the batches of the last 7 days stay): server storage / snapshot is its kept batches and snapshots over the snapshot's bytes"
    return result
  }
}
