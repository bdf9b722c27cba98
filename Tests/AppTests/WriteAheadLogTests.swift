import Foundation
import TestSupport
import Testing

/// After a normal exit, a store file (and a cloud file) holds all of its data: no
/// write-ahead log is left beside it, so copying the file is a whole backup.
@Suite struct WriteAheadLogTests {
  static func leftovers(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix("-wal")
        && ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent($0).path)[.size] as? Int) ?? 0) > 0
    }.sorted()
  }

  static let script =
    (1...200).map { "category add Aisle\($0)" }.joined(separator: "\n")
    + "\ndevice add B --store B_STORE\ncloud open CLOUD\nsync all\n"

  @Test func theBatchRunnerLeavesNoWriteAheadLog() throws {
    let directory = try TemporaryDirectory.make()
    let store = directory.appendingPathComponent("kitchen.sqlite").path
    let script = Self.script.replacingOccurrences(of: "B_STORE", with: directory.appendingPathComponent("b.sqlite").path)
      .replacingOccurrences(of: "CLOUD", with: directory.appendingPathComponent("cloud.sqlite").path)
    let result = try runProcess("forager-batch", ["--store", store, "-"], input: script)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.leftovers(directory) == [])
    // The data is in the files themselves.
    let check = try runProcess("forager-batch", ["--store", store, "-"], input: "expect count category 200\n")
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test func theREPLLeavesNoWriteAheadLogOnQuit() throws {
    let directory = try TemporaryDirectory.make()
    let store = directory.appendingPathComponent("kitchen.sqlite").path
    let result = try runProcess("forager", ["--store", store], input: "category add Dairy\ncategory add Produce\nquit\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: store))
    #expect(try Self.leftovers(directory) == [])
  }
}
