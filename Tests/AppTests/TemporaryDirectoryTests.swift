import Foundation
import SpawnSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Test files live under one directory per test process, so a run leaves nothing behind.
@Suite struct TemporaryDirectoryTests {
  @Test func directoriesAreMadeInsideThisRunsOwnDirectory() throws {
    let run = try TemporaryDirectory.runDirectory.get()
    #expect(run.lastPathComponent.hasPrefix("run-\(getpid())-"))
    let one = try TemporaryDirectory.make(), two = try TemporaryDirectory.make()
    #expect(one != two)
    #expect(one.deletingLastPathComponent().path == run.path && two.deletingLastPathComponent().path == run.path)
  }

  @Test func directoriesOfEndedRunsAreRemovedAndRunningOnesKept() throws {
    let parent = try TemporaryDirectory.make().appendingPathComponent("parent")
    // A process that has ended: a child that exited and was waited for.
    let ended = try Spawn.start("/bin/true", [])
    #expect(try Spawn.wait(ended, program: "true", timeout: 30) == 0)
    let names = [
      "run-\(ended)-aaaa", "run-\(getpid())-bbbb", UUID().uuidString.lowercased(), "notes",
    ]
    for name in names {
      try FileManager.default.createDirectory(at: parent.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    TemporaryDirectory.removeDirectoriesOfEndedRuns(in: parent)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
    #expect(left == ["run-\(getpid())-bbbb", "notes"])
  }
}
