import Foundation
import Persistence
import PersistenceSQLite
import Sync
import SyncSQLite
import TestSupport
import Testing

/// A store or cloud path in a directory that does not exist is a mistyped path: opening it
/// is an error that names the directory, and nothing is created.
@Suite struct MissingDirectoryTests {
  @Test func aStoreInAMissingDirectoryIsRefused() throws {
    let base = try TemporaryDirectory.make()
    let missing = base.appendingPathComponent("no-such-dir")
    let path = missing.appendingPathComponent("kitchen.sqlite").path
    #expect {
      _ = try SQLiteStore(path: path)
    } throws: { error in
      "\(error)".contains("the directory \(missing.path) does not exist")
    }
    #expect(!FileManager.default.fileExists(atPath: missing.path))
    // An existing directory works as before.
    _ = try SQLiteStore(path: base.appendingPathComponent("kitchen.sqlite").path)
  }

  @Test func aCloudInAMissingDirectoryIsRefused() throws {
    let base = try TemporaryDirectory.make()
    let missing = base.appendingPathComponent("typo")
    #expect {
      _ = try SQLiteCloud(path: missing.appendingPathComponent("cloud.sqlite").path)
    } throws: { error in
      (error as? CloudError)?.description.contains("the directory \(missing.path) does not exist") == true
    }
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }
}
