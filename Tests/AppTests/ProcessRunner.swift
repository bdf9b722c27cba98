import Foundation
import SpawnSupport
import TestSupport
import Testing

/// Runs the built executables as separate processes.
enum Executables {
  /// The package root, from this file's location.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The directory of the example scripts.
  static let examples = packageRoot.appendingPathComponent("Docs/examples")

  /// The built executable `name`: next to the test bundle in the build products
  /// directory (found from the process's arguments), or `FORAGER_BIN_DIR`.
  static func url(_ name: String) throws -> URL {
    var directories: [URL] = []
    if let override = ProcessInfo.processInfo.environment["FORAGER_BIN_DIR"] {
      directories.append(URL(fileURLWithPath: override))
    }
    for argument in CommandLine.arguments
    where argument.hasSuffix(".xctest") || argument.contains(".xctest/") || argument == CommandLine.arguments.first {
      var url = URL(fileURLWithPath: argument).resolvingSymlinksInPath()
      for _ in 0..<4 {
        url = url.deletingLastPathComponent()
        directories.append(url)
      }
    }
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    for directory in directories {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw MissingExecutable(name: name, searched: directories.map(\.path))
  }

  struct MissingExecutable: Error, CustomStringConvertible {
    let name: String
    let searched: [String]
    var description: String { "\(name) not found in \(searched.joined(separator: ", ")); set FORAGER_BIN_DIR" }
  }
}

/// What a finished process left behind.
struct ProcessResult {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// Runs `executable` with `arguments`, feeding `input` on standard input, for at most
/// `timeout` seconds. Started with `Spawn`, not Foundation's `Process`: the child gets no
/// descriptor of the test process but the standard three (see `Spawn`).
func runProcess(
  _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
  directory: URL? = nil, timeout: Double = 300
) throws -> ProcessResult {
  let scratch = try TemporaryDirectory.make()
  let outURL = scratch.appendingPathComponent("stdout")
  let errURL = scratch.appendingPathComponent("stderr")
  let inURL = scratch.appendingPathComponent("stdin")
  try Data().write(to: outURL)
  try Data().write(to: errURL)
  try Data((input ?? "").utf8).write(to: inURL)
  let program = try Executables.url(executable).path
  var variables = environment
  variables["NO_COLOR"] = "1"
  let pid = try Spawn.start(
    program, arguments, input: inURL.path, output: outURL.path, error: errURL.path, environment: variables,
    directory: directory?.path)
  let status = try Spawn.wait(pid, program: program, timeout: timeout)
  return ProcessResult(
    status: status,
    stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
    stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

/// Replaces every UUID with `<id>`: record ids of recipes and lists are random.
func normalizingIDs(_ text: String) -> String {
  text.replacingOccurrences(
    of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<id>", options: [.regularExpression, .caseInsensitive])
}

/// Runs `executable` like ``runProcess(_:_:input:environment:directory:timeout:)`` with
/// standard output and standard error on one file (`> file 2>&1`), and returns the
/// status and that file's text.
func runProcessWithOneOutput(_ executable: String, _ arguments: [String], input: String, timeout: Double = 300) throws -> (
  status: Int32, output: String
) {
  let scratch = try TemporaryDirectory.make()
  let outURL = scratch.appendingPathComponent("output")
  let inURL = scratch.appendingPathComponent("stdin")
  try Data().write(to: outURL)
  try Data(input.utf8).write(to: inURL)
  let program = try Executables.url(executable).path
  let pid = try Spawn.start(program, arguments, input: inURL.path, output: outURL.path, error: nil, environment: ["NO_COLOR": "1"])
  let status = try Spawn.wait(pid, program: program, timeout: timeout)
  return (status, (try? String(contentsOf: outURL, encoding: .utf8)) ?? "")
}
