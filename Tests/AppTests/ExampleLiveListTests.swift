import Foundation
import Model
import PersistenceMemory
import Repositories
import ServerTestSupport
import SpawnSupport
import Sync
import SyncHTTP
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The example app (Examples/LiveWeeklyList) as its user runs it: a process on its own
/// store, joined to a household on `forager-server`, showing a weekly list that another
/// device changes, and checking an item off that the other device then sees.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct ExampleLiveListTests {
  /// How long a change may take to show on the other side: generous, for a loaded machine.
  static let patience: TimeInterval = 60

  @Test func theExampleShowsAnotherDevicesItemAndItsCheckReachesThatDevice() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["example", "phone"])
    let server = try ServerProcess(databaseURL: database, directory: directory, name: "server")
    defer { server.stop() }

    // The example reads its commands from a FIFO the test writes. Opened here for reading
    // and writing first, so the example's open for reading does not wait for a writer.
    let input = directory.appendingPathComponent("input").path
    try #require(mkfifo(input, 0o600) == 0)
    let commands = open(input, O_RDWR)
    try #require(commands >= 0)
    defer { close(commands) }
    func send(_ line: String) {
      let bytes = Array((line + "\n").utf8)
      #expect(write(commands, bytes, bytes.count) == bytes.count)
    }
    let output = directory.appendingPathComponent("output")
    let example = try LiveListProcess(
      [
        "--store", directory.appendingPathComponent("example.sqlite").path, "--server", server.url,
        "--token-file", directory.appendingPathComponent("example.token").path, "--household", "Smith kitchen",
        "--list", "Groceries", "--week", "2024-W50",
      ], input: input, output: output)
    defer { example.stop() }
    try example.waitForOutput("Groceries (2024-W50): 0 lines, 0 done", within: Self.patience)

    // The phone, in this process, through SyncHTTP: once the example's live sync pushed
    // the list, the phone puts milk on it.
    let token = try String(contentsOf: directory.appendingPathComponent("phone.token"), encoding: .utf8)
    let phone = Library(store: InMemoryStore())
    let engine = SyncEngine(
      store: phone.store, cloud: try HTTPCloud(url: server.url, token: token, household: "Smith kitchen"), deviceName: "phone")
    let listDeadline = Date().addingTimeInterval(Self.patience)
    try engine.sync()
    while try phone.lists.find("2024-W50 Groceries") == nil, Date() < listDeadline {
      usleep(100_000)
      try engine.sync()
    }
    _ = try phone.lists.addItem("2 l milk", to: "2024-W50 Groceries")
    try engine.sync()
    try example.waitForOutput("[ ] milk  2 l", within: Self.patience)

    // Checked off in the example, it reaches the phone.
    send("check milk")
    try example.waitForOutput("[x] milk  2 l", within: Self.patience)
    let deadline = Date().addingTimeInterval(Self.patience)
    var checked = false
    while !checked, Date() < deadline {
      try engine.sync()
      checked = try phone.lists.items(of: "2024-W50 Groceries").contains { $0.displayName == "milk" && $0.isCompleted }
      if !checked { usleep(100_000) }
    }
    #expect(checked, "the phone did not see milk checked within \(Int(Self.patience)) s; the example wrote:\n\(example.output)")

    // A bad line gets an error naming it, and the example goes on.
    send("frobnicate milk")
    send("check bread")
    try example.waitForOutput("unknown command 'frobnicate'", within: Self.patience)
    try example.waitForOutput("bread", within: Self.patience)
    send("quit")
    #expect(try example.wait(within: Self.patience) == 0, "\(example.output)")
  }
}

/// The example running as a process, its standard output and error in one file.
final class LiveListProcess {
  let pid: Int32
  let log: URL
  private var ended = false

  init(_ arguments: [String], input: String, output: URL) throws {
    log = output
    try Data().write(to: output)
    pid = try Spawn.start(
      try Executables.url("forager-example-live-list").path, arguments, input: input, output: output.path,
      environment: ["NO_COLOR": "1"])
  }

  /// What it wrote so far.
  var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  /// Waits until it has written `text`.
  /// - Throws: when it has not within `seconds`, or ended first, with what it wrote.
  func waitForOutput(_ text: String, within seconds: TimeInterval) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !output.contains(text) {
      var status: Int32 = 0
      if !ended, waitpid(pid, &status, WNOHANG) == pid {
        ended = true
        throw Spawn.Failure("the example ended before writing '\(text)':\n\(output)")
      }
      if Date() > deadline { throw Spawn.Failure("the example did not write '\(text)' within \(Int(seconds)) s:\n\(output)") }
      usleep(20_000)
    }
  }

  /// Its exit status once it ends.
  func wait(within seconds: TimeInterval) throws -> Int32 {
    defer { ended = true }
    return try Spawn.wait(pid, program: "forager-example-live-list", timeout: seconds)
  }

  /// Ends it, if it is still running.
  func stop() {
    guard !ended else { return }
    ended = true
    kill(pid, SIGKILL)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
  }
}
