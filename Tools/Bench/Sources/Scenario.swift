import Foundation
import ServerTestSupport

/// One row of the benchmark table: a Forager path, usually a raw-SQLite baseline doing
/// the same work on the same data, and the target for it.
struct Scenario: Sendable {
  let id: String
  let title: String
  let target: String
  /// The size parameters it reads (names of ``Sizes`` entries), for `--list`.
  let parameters: [String]
  let run: @Sendable (Context) throws -> ScenarioResult
}

/// What a scenario gets: its sizes, a private directory, and how many rounds to repeat.
struct Context {
  let scenario: Scenario
  let sizes: Sizes
  let directory: URL
  let rounds: Int
  /// A `--smoke` run: tiny sizes, one round, to show every scenario still runs.
  var smoke = false
  /// Whether the PostgreSQL of the server scenarios flushes every commit to disk (the
  /// default, as a production server does) or runs with `fsync=off` (`--fast-postgres`).
  var durablePostgres = true

  /// Starts the throwaway PostgreSQL cluster of a server scenario, as durable as asked.
  func startPostgres() throws -> TemporaryPostgres { try TemporaryPostgres.start(durable: durablePostgres) }

  /// How the scenario's PostgreSQL commits, for its note.
  var postgresNote: String {
    durablePostgres
      ? "PostgreSQL with fsync=on, synchronous_commit=on" : "PostgreSQL with fsync=off (--fast-postgres: not durable)"
  }

  /// The fewest rounds of a whole-workload scenario (a whole sync, migration or script) that
  /// give a median and a spread.
  static let fewestWholeRounds = 5

  /// Rounds of a whole-workload scenario: `--rounds`, at least ``fewestWholeRounds``; one
  /// in a smoke run.
  var wholeRounds: Int { smoke ? 1 : max(rounds, Self.fewestWholeRounds) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// Size parameters: defaults that keep the whole run under three minutes on two cores,
/// the sizes with `--full`, and any of them set by `--size name=value`.
struct Sizes: Codable, Sendable {
  var values: [String: Int]

  static let defaults: [String: Int] = [
    "lookup.templates": 100_000, "lookup.ops": 2_000,
    "getOrCreate.templates": 100_000, "getOrCreate.ops": 2_000,
    "insert.names": 100_000,
    "recipe.templates": 1_000, "recipe.lines": 10, "recipe.ops": 300,
    "lineparse.passes": 2_000,
    "recipeimport.pages": 500,
    "kitchenarchive.records": 100_000,
    "sync.changes": 10_000, "sync.duplicates": 1_000,
    "incremental.large": 100_000, "incremental.small": 1_000, "incremental.changes": 100,
    "memory.changes": 20_000,
    "snapshot.records": 100_000, "snapshot.batches": 100_000, "snapshot.days": 1_095,
    "restore.records": 100_000,
    "observe.ops": 300, "observe.observers": 100,
    "batch.commands": 10_000, "batch.large": 100_000,
    "commands.small": 1_000, "commands.large": 100_000, "commands.ops": 8,
    "migration.records": 50_000,
    "dedup.groups": 20_000, "dedup.records": 20_000,
    "server.devices": 100, "server.households": 25, "server.seconds": 10, "server.changes": 20, "server.pace.ms": 1_000,
    "live.devices": 100, "live.households": 25, "live.changes": 1_000, "live.faulty.changes": 200, "live.idle": 1_000,
    "live.seconds": 10, "live.delay.ms": 100, "live.cut.percent": 5, "live.phases": 2,
    "fair.flooders": 4, "fair.households": 8, "fair.seconds": 10, "fair.pace.ms": 200, "fair.batch.bytes": 4 << 20,
    "serverlog.batches": 200_000, "serverlog.devices": 8, "serverlog.seconds": 10, "serverlog.phases": 3,
  ]
  /// `--smoke`: every scenario in seconds; the figures mean nothing, only that it runs.
  static let smoke: [String: Int] = [
    "lookup.templates": 200, "lookup.ops": 20,
    "getOrCreate.templates": 200, "getOrCreate.ops": 20,
    "insert.names": 200,
    "recipe.templates": 50, "recipe.lines": 3, "recipe.ops": 5,
    "lineparse.passes": 10,
    "recipeimport.pages": 5,
    "kitchenarchive.records": 500,
    "sync.changes": 200, "sync.duplicates": 20,
    "incremental.large": 500, "incremental.small": 100, "incremental.changes": 10,
    "memory.changes": 500,
    "snapshot.records": 500, "snapshot.batches": 1_000, "snapshot.days": 1_095,
    "restore.records": 500,
    "observe.ops": 5, "observe.observers": 4,
    "batch.commands": 50, "batch.large": 500,
    "commands.small": 100, "commands.large": 500, "commands.ops": 2,
    "migration.records": 500,
    "dedup.groups": 20, "dedup.records": 500,
    "server.devices": 4, "server.households": 2, "server.seconds": 1, "server.changes": 5, "server.pace.ms": 200,
    "live.devices": 8, "live.households": 2, "live.changes": 5, "live.faulty.changes": 3, "live.idle": 10,
    "live.seconds": 1, "live.delay.ms": 20, "live.cut.percent": 0, "live.phases": 1,
    "fair.flooders": 1, "fair.households": 2, "fair.seconds": 1, "fair.pace.ms": 100, "fair.batch.bytes": 64 << 10,
    "serverlog.batches": 1_000, "serverlog.devices": 2, "serverlog.seconds": 1, "serverlog.phases": 1,
  ]
  static let full: [String: Int] = defaults.merging([
    "incremental.large": 1_000_000, "memory.changes": 100_000, "snapshot.batches": 1_000_000, "serverlog.batches": 1_000_000,
    "dedup.groups": 100_000, "live.phases": 4,
  ]) {
    $1
  }

  subscript(_ name: String) -> Int { values[name] ?? Self.defaults[name] ?? 0 }

  /// The largest value `--size` takes: ten times the largest `--full` size.
  static let largest = 10_000_000
  /// The values `--size` takes where they are not 1 through ``largest``: 0 means something
  /// for a delay, a cut share, a pause or duplicates; a delay, a percent, the live phases
  /// and the snapshot history's days (at most a hundred years) have bounds of their own. Every other size counts things a scenario needs at
  /// least one of.
  static let ranges: [String: ClosedRange<Int>] = [
    "live.delay.ms": 0...10_000, "live.cut.percent": 0...100, "live.phases": 1...20,
    "server.pace.ms": 0...largest, "sync.duplicates": 0...largest, "fair.batch.bytes": 1_024...(4 << 20),
    "snapshot.days": 1...36_500,
  ]

  /// The values `--size` takes for `name`.
  static func range(_ name: String) -> ClosedRange<Int> { ranges[name] ?? 1...largest }

  /// Why `value` is not a size `name` takes, or nil when it is.
  static func problem(_ name: String, _ value: Int) -> String? {
    let range = range(name)
    guard !range.contains(value) else { return nil }
    return "--size \(name) takes \(range.lowerBound)–\(range.upperBound); got \(value)"
  }
}

/// One scenario's outcome, as the table and `--json` report it. Times in seconds.
struct ScenarioResult: Codable, Sendable {
  var id: String
  var title: String
  var target: String
  var parameters: [String: Int] = [:]
  /// Per operation (or per run, for whole-workload scenarios).
  var forager: Stats?
  var baseline: Stats?
  /// Forager median / baseline median.
  var ratio: Double?
  /// Other figures: rates, the second store of a comparison, sub-steps.
  var figures: [String: Double] = [:]
  /// "met", "missed" or "pending".
  var verdict: String
  var note: String?
  var peakResidentMiB: Double?
  /// Per-command rows of a scenario that compares a small and a large store.
  var commands: [CommandRow]?

  init(_ context: Context) {
    let scenario = context.scenario
    id = scenario.id
    title = scenario.title
    target = scenario.target
    parameters = Dictionary(uniqueKeysWithValues: scenario.parameters.map { ($0, context.sizes[$0]) })
    verdict = "pending"
  }

  mutating func compare(_ foragerSamples: [Double], _ baselineSamples: [Double]?) {
    forager = Stats(foragerSamples)
    if let baselineSamples {
      baseline = Stats(baselineSamples)
      if let forager, let baseline, baseline.median > 0 { ratio = forager.median / baseline.median }
    }
  }

  mutating func judge(_ met: Bool) { verdict = met ? "met" : "missed" }
}

/// One command's timings on a small and a large store, and their ratio.
struct CommandRow: Codable, Sendable {
  var name: String
  var small: Stats
  var large: Stats
  /// Large median / small median.
  var ratio: Double
  /// "met" when the ratio is within the limit, else "missed".
  var verdict: String

  init(_ name: String, small: [Double], large: [Double], limit: Double) {
    self.name = name
    self.small = Stats(small)
    self.large = Stats(large)
    ratio = self.small.median > 0 ? self.large.median / self.small.median : .infinity
    verdict = ratio <= limit ? "met" : "missed"
  }
}
