import BenchBaselines
import Foundation
import TestSupport
import Testing

@testable import PersistenceSQLite

/// The benchmark's hand-written baselines run on the settings a store's writer runs on: a
/// baseline on other settings measures the settings, not the code (Docs/PERFORMANCE.md,
/// "Fair baselines").
@Suite struct BaselineSettingsTests {
  /// Each compared setting of a store's writer and of a baseline's connection to the same
  /// file, by name, where they differ.
  static func differences(_ store: SQLiteStore, _ raw: RawDatabase) throws -> [String] {
    var found: [String] = []
    for name in WriterSettings.compared {
      let (writer, baseline) = (try store.writerSetting(name), try raw.setting(name))
      if writer != baseline { found.append("\(name): writer \(writer), baseline \(baseline)") }
    }
    return found
  }

  @Test func aBaselineConnectionHasTheWritersSettings() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    let raw = try RawDatabase(path: path)
    let differences = try Self.differences(store, raw)
    #expect(differences.isEmpty, "\(differences)")
    #expect(try raw.textSetting("journal_mode") == "wal")
    try raw.close()
    try store.close()
  }

  /// The comparison notices a connection left on SQLite's defaults (the baseline of the
  /// insert scenario before: no page cache or temporary-store setting, and its own checkpoints).
  @Test func aConnectionOnSQLitesDefaultsIsNoticed() throws {
    let path = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: path)
    let raw = try RawDatabase(path: path, settings: false)
    let names = try Self.differences(store, raw).map { $0.prefix { $0 != ":" } }
    #expect(names.contains("cache_size") && names.contains("temp_store") && names.contains("synchronous"))
    try raw.close()
    try store.close()
  }
}
