import BenchBaselines
import CSQLite
import Foundation
import Model
import PersistenceSQLite
import Repositories

/// The whole-kitchen archive: `export kitchen` and `import kitchen` of a kitchen of
/// `kitchenarchive.records` records (100k by default), with their peak memory.
///
/// Export: the library's archive of the kitchen (one read transaction, keys and
/// relationships resolved, records sorted), encoded and written to a file. Baseline: the
/// same rows read with one `SELECT *` per table on a raw connection, each row a JSON object
/// of its columns, encoded by the same `JSONEncoder` (sorted keys, pretty) and written: the
/// least an export of these rows does. Import: the file read, decoded and imported into a
/// new, empty SQLite store in one transaction. There is no baseline for it on equal terms
/// (a raw insert of rows checks no key, name or relationship); its figures are absolute.
enum KitchenArchiveScenario {
  /// Every live row of every kind's table as JSON objects, by one SELECT per table.
  static func baselineExport(store path: String, to output: String) throws -> Int {
    let db = try RawDatabase(path: path)
    defer { try? db.close() }
    var tables: [String: ArchiveValue] = [:]
    var rows = 0
    for kind in EntityKind.allCases {
      let select = try db.prepare("SELECT * FROM \"\(kind.rawValue)\" WHERE deletedAt IS NULL")
      let columns = (0..<sqlite3_column_count(select.handle)).map { String(cString: sqlite3_column_name(select.handle, $0)) }
      var objects: [ArchiveValue] = []
      while try select.step() {
        var object: [String: ArchiveValue] = [:]
        for (index, name) in columns.enumerated() {
          let column = Int32(index)
          switch sqlite3_column_type(select.handle, column) {
          case SQLITE_INTEGER: object[name] = .integer(sqlite3_column_int64(select.handle, column))
          case SQLITE_FLOAT: object[name] = .real(sqlite3_column_double(select.handle, column))
          case SQLITE_TEXT, SQLITE_BLOB: object[name] = .string(select.text(column))
          default: break
          }
        }
        objects.append(.object(object))
      }
      rows += objects.count
      tables[kind.rawValue] = .array(objects)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(ArchiveValue.object(tables)).write(to: URL(fileURLWithPath: output))
    return rows
  }

  static let scenario = Scenario(
    id: "kitchenarchive", title: "export kitchen and import kitchen of a whole kitchen, per run",
    target: "export ≤ 3× its baseline; figures and peak memory for both", parameters: ["kitchenarchive.records"]
  ) { context in
    let kitchen = KitchenFixture(records: context.sizes["kitchenarchive.records"])
    let sourcePath = context.path("kitchen.sqlite")
    let source = try SQLiteStore(path: sourcePath)
    let library = Library(store: source)
    try kitchen.build(in: library)
    // A store with an aisle order, so every kind is in the archive.
    _ = try library.stores.getOrCreate("Corner shop")
    _ = try library.stores.setOrder(of: "Corner shop", [KitchenFixture.category(1), KitchenFixture.category(0)])
    source.waitForCheckpoint()
    let peakBefore = Memory.peakResidentMiB()

    var exports: [Double] = [], baselines: [Double] = [], imports: [Double] = []
    var peakAfterExport = 0.0, bytes = 0, records = 0, baselineRows = 0
    for round in 0..<context.wholeRounds {
      let file = context.path("kitchen-\(round).json")
      exports.append(
        try time {
          let document = try library.exportKitchen(schemaVersion: SQLiteStore.schemaVersion)
          records = document.recordCount
          let data = try KitchenArchive.encode(document)
          bytes = data.count
          try data.write(to: URL(fileURLWithPath: file))
        })
      if round == 0 { peakAfterExport = Memory.peakResidentMiB() }
      baselines.append(try time { baselineRows = try baselineExport(store: sourcePath, to: context.path("baseline-\(round).json")) })
    }
    // Imports after every export, so the export's peak is its own.
    for round in 0..<context.wholeRounds {
      let target = try SQLiteStore(path: context.path("restored-\(round).sqlite"))
      let restored = Library(store: target)
      var summary: KitchenArchiveSummary?
      imports.append(
        try time { summary = try restored.importKitchen(try KitchenArchive.read(path: context.path("kitchen-\(round).json"))) })
      guard summary?.total.created == records, try restored.counts() == library.counts() else {
        throw BenchError("the import did not restore every record")
      }
      try target.close()
    }
    let peakAfterImport = Memory.peakResidentMiB()
    try source.close()

    var result = ScenarioResult(context)
    result.compare(exports, baselines)
    let importMedian = Stats(imports).median
    result.figures["record count"] = Double(records)
    result.figures["archive MiB"] = Double(bytes) / 1_048_576
    result.figures["baseline row count"] = Double(baselineRows)
    result.figures["import s"] = importMedian
    result.figures["import records/s"] = Double(records) / importMedian
    result.figures["export records/s"] = Double(records) / (result.forager?.median ?? .infinity)
    result.figures["peak before export MiB"] = peakBefore
    result.figures["peak after export MiB"] = peakAfterExport
    result.figures["peak after import MiB"] = peakAfterImport
    result.judge((result.ratio ?? .infinity) <= 3)
    result.note =
      "Forager column = export (archive built, encoded, written); baseline = the same live rows by one SELECT per table, "
      + "encoded by the same JSONEncoder. Import (read, decode, merge into an empty SQLite store, one transaction) has no "
      + "baseline on equal terms: figures only. Peaks are the process's, read after the kitchen was built, after the first export and after the imports"
    return result
  }
}
