import BenchBaselines
import Foundation
import Persistence
import PersistenceSQLite
import Repositories
import SpawnSupport
import Synchronization

/// Observed queries on SQLite: how long after a commit an observer of a weekly list has
/// the new value, with 1 and with many observers, and what observers cost the writer.
enum ObserveScenario {
  static let scenario = Scenario(
    id: "observe", title: "observed weekly list: commit → new value; write with 0 vs N observers",
    target: "write with N observers ≤ 1.1× with 0", parameters: ["observe.ops", "observe.observers"]
  ) { context in
    let ops = context.sizes["observe.ops"]
    let many = context.sizes["observe.observers"]
    let store = try SQLiteStore(path: context.path("store.sqlite"))
    let library = Library(store: store)
    let live = library.live
    _ = try library.categories.getOrCreate("Dairy")
    _ = try library.ingredients.getOrCreate("milk", category: "Dairy")
    /// A new list of 20 items named `name`: each phase writes to a list of its own, so the
    /// writes with and without observers add to lists of the same length (adding an item
    /// costs more as its list grows).
    func makeList(_ name: String, week: String) throws {
      _ = try library.lists.create(name, week: week)
      for number in 0..<20 { _ = try library.lists.addItem("item \(number)", to: name) }
    }

    /// Adds one item `ops` times, timing each write (wall clock and the writing thread's
    /// CPU time), and each observer's arrival of the list that holds it; waits for every
    /// observer before the next write.
    func run(observers: Int, list name: String, week: String) throws -> (writes: [Double], cpu: [Double], first: [Double], all: [Double]) {
      try makeList(name, week: week)
      var written = 20
      let arrivals = Arrivals(observers: observers)
      let tasks = (0..<observers).map { index in
        Task.detached {
          for try await list in live.shoppingList(name) {
            arrivals.note(index, items: list.aisles.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.items.count } })
          }
        }
      }
      defer { for task in tasks { task.cancel() } }
      try arrivals.waitForAll(items: written)
      var writes: [Double] = [], cpu: [Double] = [], first: [Double] = [], all: [Double] = []
      for _ in 0..<ops {
        let startCPU = threadCPUSeconds()
        let start = nanoseconds()
        _ = try library.lists.addItem("item \(written)", to: name)
        let end = nanoseconds()
        cpu.append(threadCPUSeconds() - startCPU)
        written += 1
        writes.append(Double(end - start) / 1e9)
        defer { usleep(Self.settle) }
        guard observers > 0 else { continue }
        try arrivals.waitForAll(items: written)
        let times = arrivals.times(items: written)
        first.append(Self.seconds(from: end, to: times.min() ?? end))
        all.append(Self.seconds(from: end, to: times.max() ?? end))
      }
      return (writes, cpu, first, all)
    }

    let bare = try run(observers: 0, list: "Bare", week: "2026-W45")
    let one = try run(observers: 1, list: "One", week: "2026-W46")
    let crowd = try run(observers: many, list: "Crowd", week: "2026-W47")

    // Another process commits to the same file: the observer here hears of it through the
    // store's poll of `PRAGMA data_version`. The writer prints each commit's end on the
    // shared monotonic clock; the arrival of the list holding that item is timed against it.
    try makeList("Week", week: "2026-W48")
    let arrivals = Arrivals(observers: 1)
    let observer = Task.detached {
      for try await list in live.shoppingList("Week") {
        arrivals.note(0, items: list.aisles.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.items.count } })
      }
    }
    defer { observer.cancel() }
    try arrivals.waitForAll(items: 20)
    let commits = try crossProcessCommits(path: context.path("store.sqlite"), ops: ops, directory: context.path("writer"))
    var crossing: [Double] = []
    for (items, end) in commits {
      try arrivals.waitForAll(items: items)
      crossing.append(Self.seconds(from: end, to: arrivals.times(items: items).first ?? end))
    }
    observer.cancel()
    try store.close()
    var result = ScenarioResult(context)
    result.compare(crowd.cpu, bare.cpu)
    let oneStats = Stats(one.first), firstStats = Stats(crowd.first), allStats = Stats(crowd.all)
    result.figures["1 observer: commit → new value, p50 s"] = oneStats.median
    result.figures["1 observer: commit → new value, p99 s"] = oneStats.p99 ?? oneStats.max
    result.figures["\(many) observers: commit → first has it, p50 s"] = firstStats.median
    result.figures["\(many) observers: commit → all have it, p50 s"] = allStats.median
    result.figures["\(many) observers: commit → all have it, p99 s"] = allStats.p99 ?? allStats.max
    result.figures["write CPU, 1 observer, median s"] = Stats(one.cpu).median
    result.figures["write wall clock, no observer, median s"] = Stats(bare.writes).median
    result.figures["write wall clock, \(many) observers, median s"] = Stats(crowd.writes).median
    let crossStats = Stats(crossing)
    result.figures["other process's commit → new value, p50 s"] = crossStats.median
    result.figures["other process's commit → new value, p99 s"] = crossStats.p99 ?? crossStats.max
    result.judge((result.ratio ?? .infinity) <= 1.1)
    result.note =
      "Forager: the writing thread's CPU time for lists.addItem with \(many) observers of the list (each a task reading it after every commit); baseline: the same write with none. Each phase adds \(ops) items to a list of its own that starts with 20. Observers settle before each write (\(Self.settle / 1000) ms after the last arrival, and as long between writes with none); "
      + "the wall-clock figures include the time the observers' reads, started by the commit, hold the cores. "
      + "Cross-process: \(ops) items added by a forager-bench child process to the same file, 50 ms apart, one observer here."
    return result
  }

  /// Microseconds between an observer's arrival and the next write (the same pause with no
  /// observer): an observer that has read the list still drops it and parks for the next
  /// change, and a write that starts before shares the cores with that, not with the cost
  /// of being observed.
  static let settle: UInt32 = 3_000

  /// Seconds from `start` to `end` on the monotonic clock, negative when `end` came first:
  /// an observer may read the new value between a commit and the writer's clock reading.
  static func seconds(from start: UInt64, to end: UInt64) -> Double {
    Double(Int64(bitPattern: end &- start)) / 1e9
  }

  /// Runs the writer process (``write(_:)``) on the store at `path` and reads what it
  /// printed: each item count it committed, with the commit's end on the monotonic clock.
  static func crossProcessCommits(path: String, ops: Int, directory: String) throws -> [(items: Int, end: UInt64)] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let output = directory + "/writer.out"
    let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let pid = try Spawn.start(program, ["--observe-writer", "\(path):\(ops)"], output: output)
    let status = try Spawn.wait(pid, program: program, timeout: 60 + Double(ops))
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else { throw BenchError("the observe writer process failed (status \(status)): \(text.suffix(500))") }
    let commits = text.split(separator: "\n").compactMap { line -> (Int, UInt64)? in
      let fields = line.split(separator: " ")
      guard fields.count == 2, let items = Int(fields[0]), let end = UInt64(fields[1]) else { return nil }
      return (items, end)
    }
    guard commits.count == ops else {
      throw BenchError("the observe writer committed \(commits.count) of \(ops) items: \(text.suffix(500))")
    }
    return commits
  }

  /// The writer process: `PATH:OPS` adds OPS items to the list "Week" of the store at PATH,
  /// 50 ms apart, printing after each commit the list's item count and the monotonic time.
  static func write(_ argument: String) throws {
    guard let colon = argument.lastIndex(of: ":"), let ops = Int(argument[argument.index(after: colon)...]), (1...100_000).contains(ops)
    else { throw BenchError("--observe-writer wants PATH:OPS with OPS from 1 to 100000; got '\(argument)'") }
    let store = try SQLiteStore(path: String(argument[..<colon]))
    let library = Library(store: store)
    var items = try library.lists.items(of: "Week").count
    for number in 0..<ops {
      _ = try library.lists.addItem("other process \(number)", to: "Week")
      let end = nanoseconds()
      items += 1
      FileHandle.standardOutput.write(Data("\(items) \(end)\n".utf8))
      usleep(50_000)
    }
    try store.close()
  }

  /// When each observer first saw each item count. Values are coalesced, so an observer
  /// may skip a count (two commits landing before it reads the list): the arrival of an
  /// item is the first value it read that holds it, the first count at or above it.
  final class Arrivals: Sendable {
    /// Per observer, each count it read with the time, in the order read: the list only
    /// grows, so the last count read is the largest.
    private let seen: Mutex<[[(items: Int, time: UInt64)]]>

    init(observers: Int) { seen = Mutex(Array(repeating: [], count: observers)) }

    func note(_ observer: Int, items: Int) {
      let now = nanoseconds()
      seen.withLock { $0[observer].append((items, now)) }
    }

    /// For each observer that has read a list holding `items` items, when it first did.
    func times(items: Int) -> [UInt64] {
      seen.withLock { $0.compactMap { notes in notes.first { $0.items >= items }?.time } }
    }

    /// Waits until every observer has read a list of at least `items` items (at most 30 s).
    func waitForAll(items: Int) throws {
      let deadline = nanoseconds() + 30_000_000_000
      while seen.withLock({ $0.contains { ($0.last?.items ?? 0) < items } }) {
        guard nanoseconds() < deadline else {
          let short = seen.withLock { $0.map { $0.last?.items ?? 0 } }.filter { $0 < items }
          throw BenchError("observers did not see \(items) items within 30 s (\(short.count) short, last read \(short.max() ?? 0))")
        }
        usleep(100)
      }
    }
  }
}
