import Foundation
import SpawnSupport
import Testing

/// Builds a small package that uses `LayerCheckPlugin` the way Forager's front ends do
/// and checks that `swift build` fails on an entity constructed in Scripting, then passes
/// once the line carries an annotation. Needs `swift` on PATH (skipped otherwise); takes
/// about 1–2 minutes on 2 cores, nearly all of it the fixture's cold build of swift-syntax.
@Suite("Build plugin, end to end")
struct BuildPluginEndToEndTests {
  static let swift = executableOnPath("swift")

  @Test(
    .enabled(if: swift != nil, "`swift` is not on PATH: skipping the end-to-end build of the fixture package"),
    .timeLimit(.minutes(15))
  )
  func swiftBuildFailsOnAnEntityCreatedInAFrontEndAndPassesOnceTheLineIsAnnotated() async throws {
    let swift = try #require(Self.swift)
    let package = try FixturePackage()
    defer { package.remove() }
    let started = Date()

    try package.writeScripting(
      """
      public import Model

      public func makeProduce() -> Category {
        let produce = Category(displayName: "Produce")
        return produce
      }

      """
    )
    let failing = try await package.build(with: swift)
    #expect(failing.status != 0, "the build should fail:\n\(failing.output)")
    #expect(
      failing.output.contains(
        "Scripting/Commands.swift:4:17: error: 'Category(…)' creates a Category outside a repository; "
          + "create it through CategoryRepository"
      ),
      "\(failing.output)"
    )

    try package.writeScripting(
      """
      public import Model

      public func makeProduce() -> Category {
        let produce = Category(displayName: "Produce")  // layercheck:allow fixture for the end-to-end test
        return produce
      }

      """
    )
    let passing = try await package.build(with: swift)
    #expect(passing.status == 0, "the build should pass:\n\(passing.output)")
    print("end-to-end build of the fixture package took \(Int(Date().timeIntervalSince(started))) s")
  }
}

/// `Fixtures/FixturePackage` copied to a temporary directory, with `Package.swift.fixture`
/// renamed, `Tools/LayerCheck` linked to this repository's checker and plugin and
/// `Modules/GeneratedRegion` to the module the checker uses.
struct FixturePackage {
  let root: URL

  init() throws {
    let fileManager = FileManager.default
    root = fileManager.temporaryDirectory.appending(path: "layercheck-e2e-\(UUID().uuidString)")
    try fileManager.copyItem(at: Fixtures.directory.appending(path: "FixturePackage"), to: root)
    try fileManager.moveItem(
      at: root.appending(path: "Package.swift.fixture"),
      to: root.appending(path: "Package.swift")
    )
    let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    try fileManager.createDirectory(at: root.appending(path: "Tools"), withIntermediateDirectories: true)
    try fileManager.createSymbolicLink(
      at: root.appending(path: "Tools/LayerCheck"),
      withDestinationURL: repository.appending(path: "Tools/LayerCheck")
    )
    try fileManager.createDirectory(at: root.appending(path: "Modules"), withIntermediateDirectories: true)
    try fileManager.createSymbolicLink(
      at: root.appending(path: "Modules/GeneratedRegion"),
      withDestinationURL: repository.appending(path: "Modules/GeneratedRegion")
    )
    try fileManager.createDirectory(at: root.appending(path: "Scripting"), withIntermediateDirectories: true)
  }

  func writeScripting(_ text: String) throws {
    try text.write(to: root.appending(path: "Scripting/Commands.swift"), atomically: true, encoding: .utf8)
  }

  /// `swift build --target Scripting`, with standard output and error together, stopped
  /// (with everything it started) after `timeout` seconds. Started with `Spawn`, so the
  /// build holds no descriptor of the test process, and awaited on a thread of its own:
  /// the minutes of the fixture's cold build must not hold one of the test run's few
  /// threads, which the other suites' async work needs.
  func build(with swift: String, timeout: Double = 420) async throws -> (status: Int32, output: String) {
    let log = root.appending(path: "build.log").path(percentEncoded: false)
    let pid = try Spawn.start(
      swift,
      [
        "build", "--target", "Scripting",
        "--package-path", root.path(percentEncoded: false),
        "--scratch-path", root.appending(path: ".build").path(percentEncoded: false),
        // Nobody debugs or indexes the fixture: skipping both keeps the cold build of
        // swift-syntax short.
        "-debug-info-format", "none", "--disable-index-store",
      ],
      output: log, directory: root.path(percentEncoded: false), ownProcessGroup: true
    )
    let output = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    do {
      let status = try await Spawn.waitOffTheTaskPool(pid, program: "swift build", timeout: timeout)
      return (status, output())
    } catch {
      throw Spawn.Failure("\(error); its output so far:\n\(output().suffix(4_000))")
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}

/// The first executable called `name` on PATH.
func executableOnPath(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
  }
  return nil
}
