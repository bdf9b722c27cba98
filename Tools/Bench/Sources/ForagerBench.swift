import Foundation

/// `forager-bench`: Forager against raw SQLite, scenario by scenario, each in its own
/// child process (so peak memory is the scenario's own). See Docs/PERFORMANCE.md.
@main
enum ForagerBench {
  static let usage = """
    usage: forager-bench [--json] [--full] [--only ID,ID…] [--size NAME=N]… [--rounds N]
           forager-bench --list
           forager-bench --compare OLD.json NEW.json

      --json          print the results as JSON (for comparing commits) instead of the table
      --full          the issue's sizes (a 1M-record store for the incremental sync)
      --only          run only these scenarios (ids from --list)
      --size          set a size parameter, e.g. --size insert.names=20000
      --rounds        repetitions of each measured step (default 5)
      --compare       medians of two --json outputs side by side
    """

  static func main() {
    do {
      try run(Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(Data("forager-bench: error: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run(_ arguments: [String]) throws {
    var json = false, full = false, list = false
    var only: [String]?, child: String?, compare: [String] = []
    var overrides: [String: Int] = [:]
    var rounds = 5
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--json": json = true
      case "--full": full = true
      case "--list": list = true
      case "--only": only = try value(&rest, argument).split(separator: ",").map(String.init)
      case "--rounds": rounds = max(1, Int(try value(&rest, argument)) ?? 5)
      case "--child": child = try value(&rest, argument)
      case "--serve-load": return try ServerLoadScenario.serve(try value(&rest, argument))
      case "--compare": compare = [try value(&rest, argument), try value(&rest, argument)]
      case "--size":
        let pair = try value(&rest, argument).split(separator: "=")
        guard pair.count == 2, let number = Int(pair[1].replacingOccurrences(of: "_", with: "")) else {
          throw BenchError("--size wants NAME=N")
        }
        overrides[String(pair[0])] = number
      case "-h", "--help":
        print(usage)
        return
      default: throw BenchError("unknown argument '\(argument)'\n\(usage)")
      }
    }
    if compare.count == 2 { return try Report.compare(compare[0], compare[1]) }
    let sizes = Sizes(values: (full ? Sizes.full : Sizes.defaults).merging(overrides) { $1 })
    if list {
      for scenario in Scenarios.all {
        print("\(scenario.id.padding(toLength: 14, withPad: " ", startingAt: 0)) \(scenario.title) — target: \(scenario.target)")
        for name in scenario.parameters { print("    \(name)=\(sizes[name])") }
      }
      return
    }
    if let child {
      guard let scenario = Scenarios.all.first(where: { $0.id == child }) else { throw BenchError("no scenario \(child)") }
      let result = try runHere(scenario, sizes: sizes, rounds: rounds)
      let data = try JSONEncoder().encode(result)
      print("RESULT:" + String(decoding: data, as: UTF8.self))
      return
    }
    let selected = try only.map { ids in
      try ids.map { id in
        guard let scenario = Scenarios.all.first(where: { $0.id == id }) else { throw BenchError("no scenario '\(id)' (see --list)") }
        return scenario
      }
    } ?? Scenarios.all
    var results: [ScenarioResult] = []
    let started = Date()
    for scenario in selected {
      FileHandle.standardError.write(Data("· \(scenario.id) …".utf8))
      let result = try runInChild(scenario, arguments: arguments)
      FileHandle.standardError.write(Data(" \(result.verdict) (\(Report.formatSeconds(result.forager?.median)))\n".utf8))
      results.append(result)
    }
    let run = BenchRun(
      date: ISO8601DateFormatter().string(from: started), host: Host.describe(),
      command: (["forager-bench"] + arguments).joined(separator: " "), sizes: sizes.values,
      seconds: Date().timeIntervalSince(started), results: results
    )
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: try encoder.encode(run), as: UTF8.self))
    } else {
      print(Report.table(run))
    }
  }

  private static func value(_ rest: inout ArraySlice<String>, _ flag: String) throws -> String {
    guard let next = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
    return next
  }

  static func runHere(_ scenario: Scenario, sizes: Sizes, rounds: Int) throws -> ScenarioResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forager-bench-\(scenario.id)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var result = try scenario.run(Context(scenario: scenario, sizes: sizes, directory: directory, rounds: rounds))
    result.peakResidentMiB = Memory.peakResidentMiB()
    return result
  }

  /// Runs one scenario in a fresh process of this executable and reads its result.
  static func runInChild(_ scenario: Scenario, arguments: [String]) throws -> ScenarioResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var childArguments = ["--child", scenario.id]
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--full": childArguments.append(argument)
      case "--size", "--rounds": childArguments += [argument, rest.popFirst() ?? ""]
      case "--only": _ = rest.popFirst()
      default: break
      }
    }
    process.arguments = childArguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT:") })
    else {
      var failed = ScenarioResult(Context(scenario: scenario, sizes: Sizes(values: [:]), directory: URL(fileURLWithPath: "/"), rounds: 0))
      failed.verdict = "error"
      failed.note = "child exited with status \(process.terminationStatus)"
      return failed
    }
    return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.dropFirst("RESULT:".count).utf8))
  }
}

/// One whole run, as `--json` prints it.
struct BenchRun: Codable {
  var date: String
  var host: String
  var command: String
  var sizes: [String: Int]
  var seconds: Double
  var results: [ScenarioResult]
}

enum Host {
  static func describe() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown CPU"
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
  }
}
