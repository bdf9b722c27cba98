/// The other half of the import rule: every local target a target declares in
/// `Package.swift` is imported by at least one of its files. A declared edge that no file
/// uses makes the package graph say more than the code does — the layering table and
/// Docs/ARCHITECTURE.md then describe a dependency that does not exist — so it fails like
/// an import the target does not declare.
///
/// ```swift
/// let errors = UnusedEdgeCheck().run(files, target: graph.target(named: "Sync")!, in: graph)
/// // Package.swift: error: Sync depends on Repositories, which none of its files imports; remove the dependency
/// ```
///
/// Test targets and plugins are not checked: a test target may depend on an executable so
/// that it is built, and a plugin depends on the tools it runs, not on modules it imports.
public struct UnusedEdgeCheck: Sendable {
  /// The file named in diagnostics.
  public var manifest: String

  public init(manifest: String = "Package.swift") {
    self.manifest = manifest
  }

  /// Target types whose files must import every local target they declare.
  public static let checkedTypes: Set<String> = ["regular", "executable"]

  /// The local targets `target` declares that no file in `files` imports; nothing for a
  /// target of a type ``checkedTypes`` does not hold.
  public func run(_ files: [SourceFile], target: PackageGraph.Target, in graph: PackageGraph) -> [LayerDiagnostic] {
    guard Self.checkedTypes.contains(target.type) else { return [] }
    let localNames = Set(graph.targets.map(\.name))
    let imported = files.reduce(into: Set<String>()) { $0.formUnion(ImportCollector.modules(of: $1)) }
    var seen: Set<String> = []
    return target.dependencies.compactMap { dependency -> LayerDiagnostic? in
      let name: String
      switch dependency {
      case .target(let target): name = target
      case .byName(let byName) where localNames.contains(byName): name = byName
      case .byName, .product: return nil
      }
      guard !imported.contains(name), seen.insert(name).inserted else { return nil }
      return LayerDiagnostic(
        path: manifest,
        message: "\(target.name) depends on \(name), which none of its files imports; remove the dependency")
    }
  }
}
