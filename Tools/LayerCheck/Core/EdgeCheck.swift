/// The dependency rule: every edge of the package graph must be allowed by the table.
///
/// ```swift
/// let graph = try PackageGraph.decode(dumpPackage: data)
/// let errors = EdgeCheck(table: .forager).run(graph)
/// // Package.swift: error: Seed must not depend on Sync (allowed: Model, Repositories)
/// ```
public struct EdgeCheck: Sendable {
  public var table: LayerTable
  /// The file named in diagnostics.
  public var manifest: String

  public init(table: LayerTable, manifest: String = "Package.swift") {
    self.table = table
    self.manifest = manifest
  }

  /// The file where the table lives, for the "add it" hint.
  public static let tableFile = "Tools/LayerCheck/Core/AllowedEdges.swift"

  public func run(_ graph: PackageGraph) -> EdgeReport {
    let localNames = Set(graph.targets.map(\.name))
    var report = EdgeReport(targetsChecked: graph.targets.count)
    for target in graph.targets {
      guard let entry = table.entry(named: target.name) else {
        if !target.isTest {
          report.violations.append(
            LayerDiagnostic(
              path: manifest,
              message: "target '\(target.name)' is not in the layering table; add it to \(Self.tableFile) "
                + "with the targets and products it may depend on"
            )
          )
        }
        continue
      }
      for dependency in target.dependencies {
        report.edgesChecked += 1
        let (name, isLocal): (String, Bool) =
          switch dependency {
          case .target(let name): (name, true)
          case .product(let name, _): (name, false)
          case .byName(let name): (name, localNames.contains(name))
          }
        let allowed = (isLocal ? entry.targets : entry.products)?.contains(name) ?? true
        if !allowed {
          report.violations.append(
            LayerDiagnostic(
              path: manifest,
              message: "\(target.name) must not depend on \(name) (allowed: \(entry.allowedDescription))"
            )
          )
        }
      }
    }
    return report
  }
}

/// The outcome of the dependency rule.
public struct EdgeReport: Sendable, Equatable {
  public var targetsChecked: Int
  public var edgesChecked = 0
  public var violations: [LayerDiagnostic] = []

  public init(targetsChecked: Int, edgesChecked: Int = 0, violations: [LayerDiagnostic] = []) {
    self.targetsChecked = targetsChecked
    self.edgesChecked = edgesChecked
    self.violations = violations
  }

  public var summary: String {
    "layer-check: \(targetsChecked) target(s), \(edgesChecked) edge(s) checked, "
      + "\(violations.count) violation(s)"
  }
}
