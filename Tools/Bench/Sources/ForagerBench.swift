import ArgumentParser
import BenchBaselines
import Foundation
import SpawnSupport

/// `forager-bench`: Forager against raw SQLite, scenario by scenario, each in its own
/// child process (so peak memory is the scenario's own). See Docs/PERFORMANCE.md.
@main
struct ForagerBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forager-bench",
    abstract: "Forager against hand-written baselines, scenario by scenario, each in a process of its own (Docs/PERFORMANCE.md).",
    discussion: "Compare two commits: run each with --json into a file, then --compare OLD.json NEW.json.")

  @Flag(help: "Print the results as JSON (for comparing commits) instead of the table.") var json = false
  @Flag(help: "The reference sizes of Docs/PERFORMANCE.md (a 1M-record store for the incremental sync, 100k changes pulled).")
  var full = false
  @Flag(
    help: ArgumentHelp(
      "Tiny sizes and one round: shows in seconds that every scenario runs. Exits non-zero when one errors, is skipped or pending.",
      discussion: "The test command runs it; its figures mean nothing."))
  var smoke = false
  @Flag(
    help: ArgumentHelp(
      "Run the server scenarios' PostgreSQL with fsync=off (not durable), as the tests do.",
      discussion: "By default every commit is flushed to disk (fsync=on, synchronous_commit=on), as a production server runs."))
  var fastPostgres = false
  @Flag(help: "List the scenarios and their size parameters.") var list = false
  @Option(help: ArgumentHelp("Run only these scenarios (ids from --list).", valueName: "ID,ID…")) var only: String?
  @Option(name: .customLong("size"), help: ArgumentHelp("Set a size parameter (repeatable).", valueName: "NAME=N")) var sizeSettings:
    [String] = []
  @Option(help: "Repetitions of each measured step (1–1000).") var rounds = 5
  @Option(parsing: .upToNextOption, help: ArgumentHelp("Medians of two --json outputs side by side.", valueName: "OLD.json NEW.json"))
  var compare: [String] = []
  /// Runs one scenario here and prints its result (the parent's child process).
  @Option(help: .hidden) var child: String?
  /// Serves the load scenario's server on a database (its child process).
  @Option(name: .customLong("serve-load"), help: .hidden) var serveLoad: String?
  /// With `--serve-load`: the live scenario's limits (``ServerLoadScenario/serve(_:live:)``).
  @Flag(name: .customLong("serve-live"), help: .hidden) var serveLive = false
  /// With `--serve-load`: the fairness scenario's limits (``FairnessScenario/Limits``).
  @Option(name: .customLong("serve-limits"), help: .hidden) var serveLimits: FairnessScenario.Limits?

  func validate() throws {
    guard (1...1_000).contains(rounds) else { throw ValidationError("--rounds must be from 1 to 1000; got \(rounds)") }
    guard !(smoke && full) else { throw ValidationError("--smoke and --full are two sizes; pick one") }
    guard compare.isEmpty || compare.count == 2 else { throw ValidationError("--compare takes two files: OLD.json NEW.json") }
    _ = try overrides()
    if let only {
      for id in only.split(separator: ",") where !Scenarios.all.contains(where: { $0.id == id }) {
        throw ValidationError("no scenario '\(id)' (see --list)")
      }
    }
  }

  /// The `--size` settings, read.
  func overrides() throws -> [String: Int] {
    var values: [String: Int] = [:]
    for setting in sizeSettings {
      let pair = setting.split(separator: "=")
      guard pair.count == 2, let number = Int(pair[1].replacingOccurrences(of: "_", with: "")), number >= 0 else {
        throw ValidationError("--size wants NAME=N with a whole number from 0; got '\(setting)'")
      }
      guard Sizes.defaults[String(pair[0])] != nil else {
        throw ValidationError("--size: no size parameter '\(pair[0])' (see --list)")
      }
      if let problem = Sizes.problem(String(pair[0]), number) { throw ValidationError(problem) }
      values[String(pair[0])] = number
    }
    return values
  }

  func run() throws {
    if let serveLoad { return try ServerLoadScenario.serve(serveLoad, live: serveLive, limits: serveLimits) }
    if compare.count == 2 { return try Report.compare(compare[0], compare[1]) }
    let sizes = Sizes(values: (smoke ? Sizes.smoke : full ? Sizes.full : Sizes.defaults).merging(try overrides()) { $1 })
    let rounds = smoke ? 1 : rounds
    if list {
      for scenario in Scenarios.all {
        print("\(scenario.id.padding(toLength: 14, withPad: " ", startingAt: 0)) \(scenario.title) — target: \(scenario.target)")
        for name in scenario.parameters { print("    \(name)=\(sizes[name])") }
      }
      return
    }
    if let child {
      guard let scenario = Scenarios.all.first(where: { $0.id == child }) else { throw BenchError("no scenario \(child)") }
      let result = try Self.runHere(scenario, sizes: sizes, rounds: rounds, smoke: smoke, durablePostgres: !fastPostgres)
      let data = try JSONEncoder().encode(result)
      print("RESULT:" + String(decoding: data, as: UTF8.self))
      return
    }
    let ids = only.map { $0.split(separator: ",").map(String.init) }
    let selected = Scenarios.all.filter { scenario in ids.map { $0.contains(scenario.id) } ?? true }
    var results: [ScenarioResult] = []
    let started = Date()
    let loadAtStart = Load.oneMinute()
    for scenario in selected {
      FileHandle.standardError.write(Data("· \(scenario.id) …".utf8))
      let result = try Self.runInChild(scenario, sizes: sizes, arguments: childArguments(scenario))
      FileHandle.standardError.write(Data(" \(result.verdict) (\(Report.formatSeconds(result.forager?.median)))\n".utf8))
      results.append(result)
    }
    let run = BenchRun(
      date: ISO8601DateFormatter().string(from: started), commit: Host.commit(), host: Host.describe(),
      command: (["forager-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "), sizes: sizes.values,
      seconds: Date().timeIntervalSince(started), loadAtStart: loadAtStart, loadAtEnd: Load.oneMinute(), results: results
    )
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: try encoder.encode(run), as: UTF8.self))
    } else {
      print(Report.table(run))
    }
    if smoke {
      let failed = results.filter { Self.smokeFailures.contains($0.verdict) }
      guard failed.isEmpty else {
        throw BenchError(
          "smoke run: " + failed.map { "\($0.id) \($0.verdict)" + ($0.note.map { " (\($0))" } ?? "") }.joined(separator: "; "))
      }
    }
  }

  /// Verdicts that fail a smoke run: the scenario did not run to its end.
  static let smokeFailures: Set<String> = ["error", "pending", "skipped"]

  /// What a scenario's child process is given: the sizes and rounds of this run.
  private func childArguments(_ scenario: Scenario) -> [String] {
    ["--child", scenario.id, "--rounds", String(rounds)] + (full ? ["--full"] : []) + (smoke ? ["--smoke"] : [])
      + (fastPostgres ? ["--fast-postgres"] : [])
      + sizeSettings.flatMap { ["--size", $0] }
  }

  static func runHere(_ scenario: Scenario, sizes: Sizes, rounds: Int, smoke: Bool, durablePostgres: Bool) throws -> ScenarioResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "forager-bench-\(scenario.id)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var result = try scenario.run(
      Context(scenario: scenario, sizes: sizes, directory: directory, rounds: rounds, smoke: smoke, durablePostgres: durablePostgres))
    result.peakResidentMiB = Memory.peakResidentMiB()
    // A figure with no value (a percentile from too few samples) is left out: JSON has no NaN.
    result.figures = result.figures.filter { $0.value.isFinite }
    return result
  }

  /// Runs one scenario in a fresh process of this executable and reads its result; a
  /// failed child's result names the `sizes` it was given.
  static func runInChild(_ scenario: Scenario, sizes: Sizes, arguments: [String]) throws -> ScenarioResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    // The child's errors go to a file, passed on to this process's standard error once it
    // ends, so the reason a scenario failed is in the report, not only on a terminal.
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
      "forager-bench-\(scenario.id)-\(UUID().uuidString.prefix(8)).err")
    guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
      throw BenchError("cannot create \(errors.path) for the child's errors")
    }
    defer { try? FileManager.default.removeItem(at: errors) }
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    FileHandle.standardError.write(Data(errorText.utf8))
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT:") })
    else {
      var failed = ScenarioResult(Context(scenario: scenario, sizes: sizes, directory: URL(fileURLWithPath: "/"), rounds: 0))
      failed.verdict = "error"
      let how = process.terminationReason == .uncaughtSignal ? "was killed by signal" : "exited with status"
      // The error or trap itself, not the backtrace that follows a trap.
      let lines = errorText.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
      let reason = lines.first { ["Error:", "Fatal error:", "Program crashed:"].contains(where: $0.contains) } ?? lines.last
      failed.note = "child \(how) \(process.terminationStatus)" + (reason.map { ": \($0)" } ?? "")
      return failed
    }
    return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.dropFirst("RESULT:".count).utf8))
  }
}

/// One whole run, as `--json` prints it.
struct BenchRun: Codable {
  var date: String
  /// The commit of the working directory (`git describe --always --dirty`), when it is one.
  var commit: String?
  var host: String
  var command: String
  var sizes: [String: Int]
  var seconds: Double
  /// The 1-minute load average when the run started and when it ended: a figure from a
  /// loaded machine says so.
  var loadAtStart: Double?
  var loadAtEnd: Double?
  var results: [ScenarioResult]
}

enum Host {
  /// `git describe --always --dirty` in the current directory, or nil outside a repository.
  static func commit() -> String? {
    (try? Spawn.run("/usr/bin/env", ["git", "describe", "--always", "--dirty"]))?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func describe() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown CPU"
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    return
      "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
  }
}

extension FairnessScenario.Limits: ExpressibleByArgument {}
