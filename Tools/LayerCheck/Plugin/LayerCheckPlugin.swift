import Foundation
import PackagePlugin

/// Runs `layer-check sources` over a front-end target's sources on every build, so that
/// `swift build` fails when Scripting or an app constructs an entity outside a repository.
///
/// It reads the entity types and the Store's mutating API from the package's targets
/// named `Model` and `Persistence` (and fix hints from `Repositories`, if present), so the
/// same plugin works in any package that has targets of those names. The declared output
/// is a comment-only `.swift` stamp: SwiftPM runs the command when an input changes and
/// fails the build on the tool's exit status (Docs/ARCHITECTURE.md, "The layering rule").
@main
struct LayerCheckPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let module = target as? SourceModuleTarget else { return [] }
    let package = context.package
    func sourceModule(_ name: String) -> SourceModuleTarget? {
      package.targets.first { $0.name == name } as? SourceModuleTarget
    }
    guard let model = sourceModule("Model"), let persistence = sourceModule("Persistence") else {
      throw LayerCheckPluginError.missingTarget(package: package.displayName)
    }
    let repositories = sourceModule("Repositories")
    let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
    let vocabularyInputs = [model, persistence, repositories].compactMap { $0 }
      .flatMap { $0.sourceFiles(withSuffix: "swift").map(\.url) }
    let stamp = context.pluginWorkDirectoryURL.appending(path: "LayerCheck-\(target.name).swift")

    var arguments = [
      "sources",
      "--model", model.directoryURL.path(percentEncoded: false),
      "--persistence", persistence.directoryURL.path(percentEncoded: false),
    ]
    if let repositories {
      arguments += ["--repositories", repositories.directoryURL.path(percentEncoded: false)]
    }
    arguments += ["--stamp", stamp.path(percentEncoded: false), "--front-end", target.name]
    arguments += sources.map { $0.path(percentEncoded: false) }

    return [
      .buildCommand(
        displayName: "Checking the layering rule in \(target.name)",
        executable: try context.tool(named: "layer-check").url,
        arguments: arguments,
        inputFiles: sources + vocabularyInputs,
        outputFiles: [stamp]
      )
    ]
  }
}

enum LayerCheckPluginError: Error, CustomStringConvertible {
  case missingTarget(package: String)

  var description: String {
    switch self {
    case .missingTarget(let package):
      "LayerCheckPlugin needs targets named 'Model' and 'Persistence' in package '\(package)'"
    }
  }
}
