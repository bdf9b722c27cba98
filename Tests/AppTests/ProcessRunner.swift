import Foundation
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

/// Runs `executable` with `arguments`, feeding `input` on standard input.
func runProcess(
  _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
  directory: URL? = nil
) throws -> ProcessResult {
  let scratch = try makeTemporaryDirectory()
  let outURL = scratch.appendingPathComponent("stdout")
  let errURL = scratch.appendingPathComponent("stderr")
  let inURL = scratch.appendingPathComponent("stdin")
  try Data().write(to: outURL)
  try Data().write(to: errURL)
  try Data((input ?? "").utf8).write(to: inURL)
  let process = Process()
  process.executableURL = try Executables.url(executable)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  env["NO_COLOR"] = "1"
  for (key, value) in environment { env[key] = value }
  process.environment = env
  if let directory { process.currentDirectoryURL = directory }
  process.standardInput = try FileHandle(forReadingFrom: inURL)
  process.standardOutput = try FileHandle(forWritingTo: outURL)
  process.standardError = try FileHandle(forWritingTo: errURL)
  try process.run()
  process.waitUntilExit()
  return ProcessResult(
    status: process.terminationStatus,
    stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
    stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}

func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("forager-app-tests")
    .appendingPathComponent(UUID().uuidString.lowercased())
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Replaces every UUID with `<id>`: record ids of recipes and lists are random.
func normalizingIDs(_ text: String) -> String {
  text.replacingOccurrences(
    of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<id>", options: [.regularExpression, .caseInsensitive])
}
