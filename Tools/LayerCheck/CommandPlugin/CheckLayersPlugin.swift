import Foundation
import PackagePlugin

/// `swift package check-layers`: checks the module dependency edges against the allowed
/// table and the front-end targets' sources, without building them.
///
/// Pass `--edges-only` to skip the source check.
@main
struct CheckLayersPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let graphFile = context.pluginWorkDirectoryURL.appending(path: "package-graph.json")
    try FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
    try describe(context.package).write(to: graphFile)

    var toolArguments = ["edges", "--package", graphFile.path(percentEncoded: false)]
    if !arguments.contains("--edges-only") {
      toolArguments += ["--check-sources", "--package-root", context.package.directoryURL.path(percentEncoded: false)]
    }
    let process = Process()
    process.executableURL = try context.tool(named: "layer-check").url
    process.arguments = toolArguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw CheckLayersError.failed(status: process.terminationStatus)
    }
  }

  /// The package's targets in the shape of `swift package dump-package`, which is what
  /// `layer-check edges` reads.
  private func describe(_ package: Package) throws -> Data {
    let targets: [[String: Any]] = package.targets.map { target in
      let dependencies: [[String: Any]] = target.dependencies.map { dependency in
        switch dependency {
        case .target(let target): ["target": [target.name]]
        case .product(let product): ["product": [product.name]]
        @unknown default: [:]
        }
      }
      return [
        "name": target.name,
        "type": kind(of: target),
        "path": target.directoryURL.path(percentEncoded: false),
        "dependencies": dependencies,
      ]
    }
    return try JSONSerialization.data(withJSONObject: ["targets": targets], options: [.sortedKeys])
  }

  private func kind(of target: Target) -> String {
    if target is SystemLibraryTarget { return "system" }
    if target is BinaryArtifactTarget { return "binary" }
    switch (target as? SourceModuleTarget)?.kind {
    case .executable: return "executable"
    case .test: return "test"
    case .macro: return "macro"
    default: return "regular"
    }
  }
}

enum CheckLayersError: Error, CustomStringConvertible {
  case failed(status: Int32)

  var description: String {
    switch self {
    case .failed(let status):
      "the layering rule failed (layer-check exited with status \(status)); see the errors above"
    }
  }
}
