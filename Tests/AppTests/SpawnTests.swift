import Foundation
import SpawnSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The way tests start programs: a child holds none of the test process's descriptors, so
/// nothing it leaves running can keep another test waiting for its own child forever.
@Suite struct SpawnTests {
  @Test func aStartedProgramHoldsOnlyTheStandardThreeDescriptors() throws {
    // A pipe not marked close-on-exec, as Foundation's `Process` leaves its own.
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    let directory = try TemporaryDirectory.make()
    let output = directory.appendingPathComponent("fds").path
    let pid = try Spawn.start("/bin/sh", ["-c", "ls /proc/$$/fd"], output: output)
    #expect(try Spawn.wait(pid, program: "sh", timeout: 30) == 0)
    let listed = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
    #expect(listed.contains(0) && listed.contains(1) && listed.contains(2), "\(listed)")
    #expect(!listed.contains(ends[0]) && !listed.contains(ends[1]), "the pipe \(ends) reached the child: \(listed)")
  }

  @Test func aProgramThatOutlivesItsTimeIsStoppedAndNamed() throws {
    let pid = try Spawn.start("/bin/sh", ["-c", "sleep 300"], ownProcessGroup: true)
    let started = Date()
    #expect(throws: Spawn.Failure.self) { try Spawn.wait(pid, program: "/bin/sh", timeout: 0.2) }
    #expect(Date().timeIntervalSince(started) < 30)
    #expect(kill(pid, 0) == -1, "the program still runs")
  }

  @Test func standardInputErrorAndDirectoryAreTheOnesGiven() throws {
    let directory = try TemporaryDirectory.make()
    let input = directory.appendingPathComponent("in").path
    try "from the file\n".write(toFile: input, atomically: true, encoding: .utf8)
    let output = directory.appendingPathComponent("out").path
    let error = directory.appendingPathComponent("err").path
    let pid = try Spawn.start(
      "/bin/sh", ["-c", "cat; pwd; echo complaint >&2"], input: input, output: output, error: error,
      directory: directory.path)
    #expect(try Spawn.wait(pid, program: "sh", timeout: 30) == 0)
    let resolved = directory.resolvingSymlinksInPath().path
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "from the file\n\(resolved)\n")
    #expect(try String(contentsOfFile: error, encoding: .utf8) == "complaint\n")
  }
}
