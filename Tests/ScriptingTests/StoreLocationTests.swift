import Foundation
import Scripting
import Testing

/// Both front ends resolve `--store`, `--memory` and the default store here, and map
/// outcomes to exit codes here.
@Suite struct StoreLocationTests {
  @Test func theOptionsNameTheStoreAndTheBannerSaysWhichOne() throws {
    let data = FileManager.default.temporaryDirectory.appending(path: "forager-location-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: data) }
    let environment = ["XDG_DATA_HOME": data.path]
    #expect(StoreLocation.conflict(store: "a.sqlite", memory: true) == "give either --store or --memory, not both")
    #expect(StoreLocation.conflict(store: "a.sqlite", memory: false) == nil)

    let memory = try StoreLocation(store: nil, memory: true, environment: environment)
    #expect(memory.location == "memory" && memory.description == "in memory (nothing is saved)")
    let path = try StoreLocation(store: data.appending(path: "k.sqlite").path, memory: false, environment: environment)
    #expect(path.location == "sqlite:" + data.appending(path: "k.sqlite").path && path.description.hasSuffix("k.sqlite (new)"))

    let first = try StoreLocation(store: nil, memory: false, environment: environment)
    let file = data.appending(path: "forager/forager.sqlite").path
    #expect(first.location == "sqlite:" + file && first.description == file + " (created)")
    #expect(FileManager.default.fileExists(atPath: data.appending(path: "forager").path))
  }

  @Test func aDataDirectoryThatCannotBeMadeIsAFailureNamingIt() throws {
    let file = FileManager.default.temporaryDirectory.appending(path: "forager-file-\(UUID().uuidString)")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect {
      try StoreLocation(store: nil, memory: false, environment: ["XDG_DATA_HOME": file.path])
    } throws: { error in
      (error as? StoreLocation.Failure)?.description.hasPrefix("cannot create \(file.path)/forager: ") == true
    }
  }

  @Test func exitCodesOfARunAndOfTheArgumentParser() {
    #expect(
      [ScriptRunner.Status.success, .commandFailed, .usage, .expectationFailed].map(ExitCodes.code(for:)) == [0, 1, 2, 3])
    #expect([0, 1, 64].map(ExitCodes.code(forParserCode:)) == [0, 1, 2])
  }
}
