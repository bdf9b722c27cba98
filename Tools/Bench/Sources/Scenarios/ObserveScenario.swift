import BenchBaselines
import Foundation
import Persistence
import PersistenceSQLite
import Repositories
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
    _ = try library.lists.create("Week", week: "2026-W47")
    for number in 0..<20 { _ = try library.lists.addItem("item \(number)", to: "Week") }
    var written = 20

    /// Adds one item `ops` times, timing each write, and each observer's arrival of the
    /// list that holds it; waits for every observer before the next write.
    func run(observers: Int) throws -> (writes: [Double], first: [Double], all: [Double]) {
      let arrivals = Arrivals(observers: observers)
      let tasks = (0..<observers).map { index in
        Task.detached {
          for try await list in live.shoppingList("Week") {
            arrivals.note(index, items: list.aisles.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.items.count } })
          }
        }
      }
      defer { for task in tasks { task.cancel() } }
      try arrivals.waitForAll(items: written)
      var writes: [Double] = [], first: [Double] = [], all: [Double] = []
      for _ in 0..<ops {
        let start = nanoseconds()
        _ = try library.lists.addItem("item \(written)", to: "Week")
        let end = nanoseconds()
        written += 1
        writes.append(Double(end - start) / 1e9)
        guard observers > 0 else { continue }
        try arrivals.waitForAll(items: written)
        let times = arrivals.times(items: written)
        first.append(Double((times.min() ?? end) - end) / 1e9)
        all.append(Double((times.max() ?? end) - end) / 1e9)
      }
      return (writes, first, all)
    }

    let bare = try run(observers: 0)
    let one = try run(observers: 1)
    let crowd = try run(observers: many)
    try store.close()
    var result = ScenarioResult(context)
    result.compare(crowd.writes, bare.writes)
    let oneStats = Stats(one.first), firstStats = Stats(crowd.first), allStats = Stats(crowd.all)
    result.figures["1 observer: commit → new value, p50 s"] = oneStats.median
    result.figures["1 observer: commit → new value, p99 s"] = oneStats.p99 ?? oneStats.max
    result.figures["\(many) observers: commit → first has it, p50 s"] = firstStats.median
    result.figures["\(many) observers: commit → all have it, p50 s"] = allStats.median
    result.figures["\(many) observers: commit → all have it, p99 s"] = allStats.p99 ?? allStats.max
    result.figures["write, 1 observer, median s"] = Stats(one.writes).median
    result.judge((result.ratio ?? .infinity) <= 1.1)
    result.note =
      "Forager: lists.addItem with \(many) observers of the list (each a task reading it after every commit); baseline: the same write with none. Observers settle before each write."
    return result
  }

  /// When each observer saw each item count.
  final class Arrivals: Sendable {
    private let seen: Mutex<[[Int: UInt64]]>

    init(observers: Int) { seen = Mutex(Array(repeating: [:], count: observers)) }

    func note(_ observer: Int, items: Int) {
      let now = nanoseconds()
      seen.withLock { $0[observer][items] = now }
    }

    func times(items: Int) -> [UInt64] { seen.withLock { $0.compactMap { $0[items] } } }

    /// Waits until every observer has seen `items` items (at most 30 s).
    func waitForAll(items: Int) throws {
      let deadline = nanoseconds() + 30_000_000_000
      while seen.withLock({ $0.contains { $0[items] == nil } }) {
        guard nanoseconds() < deadline else { throw BenchError("observers did not see \(items) items within 30 s") }
        usleep(100)
      }
    }
  }
}
