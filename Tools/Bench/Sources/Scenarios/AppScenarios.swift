import BenchBaselines
import Foundation
import PersistenceSQLite
import Repositories

/// The front ends, run as the user runs them: the built executables next to this one.
enum AppScenarios {
  static var directory: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent() }

  static func executable(_ name: String) -> URL? {
    let url = directory.appendingPathComponent(name)
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
  }

  /// What to do when an app is missing: build the whole package in the same configuration.
  static func missing(_ name: String) -> String {
    "pending: \(name) is not built in \(directory.path); build the whole package there first "
      + "(`swift build -c release`, with the same --scratch-path if you use one), then `forager-bench --only batch,repl`"
  }

  /// Runs an executable with stdin from a file; returns the seconds until it exited.
  static func timed(_ url: URL, _ arguments: [String], stdin: URL?) throws -> (seconds: Double, status: Int32, output: String) {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let start = nanoseconds()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (Double(nanoseconds() - start) / 1e9, process.terminationStatus, String(decoding: data.suffix(2_000), as: UTF8.self))
  }

  static let batch = Scenario(
    id: "batch", title: "forager-batch running a command script, on a new store and on a kitchen of 100k records",
    target: "< 1.2 s; on the large store within 1.5×", parameters: ["batch.commands", "batch.large"]
  ) { context in
    var result = ScenarioResult(context)
    guard let url = executable("forager-batch") else {
      result.note = missing("forager-batch")
      return result
    }
    let script = context.directory.appendingPathComponent("script.forager")
    try BatchScript.write(commands: context.sizes["batch.commands"], to: script)
    // The same script on a copy of a kitchen with years of data, built once (untimed).
    let kitchen = context.path("kitchen.sqlite")
    let fixture = KitchenFixture(records: context.sizes["batch.large"])
    do {
      let store = try SQLiteStore(path: kitchen)
      try fixture.build(in: Library(store: store))
      try store.close()
    }
    var fresh: [Double] = [], large: [Double] = []
    for round in 0..<context.wholeRounds {
      let store = context.path("batch-\(round).sqlite")
      let run = try timed(url, BatchScript.arguments(script: script.path, store: store), stdin: nil)
      guard run.status == 0 else { throw BenchError("forager-batch failed (\(run.status)): \(run.output)") }
      fresh.append(run.seconds)
      let copy = context.path("batch-large-\(round).sqlite")
      try FileManager.default.copyItem(atPath: kitchen, toPath: copy)
      let onLarge = try timed(url, BatchScript.arguments(script: script.path, store: copy), stdin: nil)
      guard onLarge.status == 0 else { throw BenchError("forager-batch on the large store failed (\(onLarge.status)): \(onLarge.output)") }
      large.append(onLarge.seconds)
      try? FileManager.default.removeItem(atPath: copy)
    }
    result.compare(fresh, nil)
    let largeMedian = Stats(large).median
    result.figures["on the large store"] = largeMedian
    result.figures["large store records count"] = Double(fixture.records)
    let freshMedian = result.forager?.median ?? .infinity
    result.figures["large / new store"] = largeMedian / freshMedian
    result.judge(freshMedian < 1.2 && largeMedian / freshMedian <= 1.5)
    result.note = "whole process: start, open the SQLite store (new, or a copy of the large kitchen), run the script, exit"
    return result
  }

  static let replStart = Scenario(
    id: "repl", title: "REPL start (to the first prompt, then quit)", target: "< 150 ms", parameters: []
  ) { context in
    var result = ScenarioResult(context)
    guard let url = executable("forager") else {
      result.note = missing("forager")
      return result
    }
    let input = context.directory.appendingPathComponent("quit.txt")
    try Data("quit\n".utf8).write(to: input)
    var samples: [Double] = []
    for round in 0..<context.wholeRounds {
      let run = try timed(url, BatchScript.replArguments(store: context.path("repl-\(round).sqlite")), stdin: input)
      guard run.status == 0 else { throw BenchError("forager failed (\(run.status)): \(run.output)") }
      samples.append(run.seconds)
    }
    result.compare(samples, nil)
    result.judge((result.forager?.median ?? .infinity) < 0.15)
    result.note = "whole process with stdin 'quit': start, open a fresh SQLite store, first prompt, exit"
    return result
  }
}

/// The script the batch scenario runs.
enum BatchScript {
  static func write(commands: Int, to url: URL) throws {
    var lines: [String] = []
    lines.reserveCapacity(commands)
    for index in 0..<commands {
      lines.append("category add \"\(Names.template(index, prefix: "aisle"))\"")
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
  }

  static func arguments(script: String, store: String) -> [String] { ["--store", store, script] }
  static func replArguments(store: String) -> [String] { ["--store", store] }
}
