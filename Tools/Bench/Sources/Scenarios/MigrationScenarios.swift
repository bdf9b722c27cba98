import Foundation
import Migration

/// Old stores, written by the `Migration` module's v1 generator and upgraded in place.
enum MigrationScenarios {
  static let migration = Scenario(
    id: "migration", title: "v1 → v3 migration (generated v1 store, its dedup included)", target: "< 5 s",
    parameters: ["migration.records"]
  ) { context in
    var samples: [Double] = [], rows = 0
    for round in 0..<min(context.rounds, 3) {
      let path = context.path("v1-\(round).sqlite")
      rows = try LegacyStoreGenerator(seed: 7, recordCount: context.sizes["migration.records"]).write(to: path).total
      let migrator = StoreMigrator(path: path)
      var report: MigrationReport?
      samples.append(try time { report = try migrator.migrate(MigrationOptions(makeBackup: false)) })
      guard let report, report.toVersion == StoreMigrator.currentVersion else { throw BenchError("migration did not reach v3") }
    }
    var result = ScenarioResult(context)
    result.compare(samples, nil)
    result.figures["v1 rows count"] = Double(rows)
    result.judge((result.forager?.median ?? .infinity) < 5)
    result.note = "LegacyStoreGenerator(seed: 7) then StoreMigrator.migrate (stage A, keeper-rule dedup, stage B), no backup"
    return result
  }
}
