import SwiftParser
import SwiftSyntax

/// Every target's imports: a target may import only the modules its table entry allows and
/// the system's own. For a front end (Scripting, an app) this means it cannot reach past the
/// repositories by importing a backend (`import GRDB` and writing SQL) even where the
/// package would let the compiler find the module; for a library module, that it cannot use
/// a module it only reaches through another's dependencies (SwiftPM's own
/// `--explicit-target-dependency-import-check` does not catch that with this toolchain:
/// Docs/ARCHITECTURE.md).
///
/// ```swift
/// let violations = ImportCheck(table: .forager).run(files, frontEnd: "forager")
/// let moduleViolations = ImportCheck(table: .forager).run(files, target: "Seed")
/// ```
public struct ImportCheck: Sendable {
  /// Modules of the toolchain and the C library, always allowed.
  public static let systemModules: Set<String> = [
    "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl",
    "Darwin", "Synchronization", "RegexBuilder", "PackagePlugin", "Observation",
  ]

  public var table: LayerTable

  public init(table: LayerTable) {
    self.table = table
  }

  /// The imports in `files` that `frontEnd` may not make; nothing for a name the table
  /// does not list as a front end.
  public func run(_ files: [SourceFile], frontEnd: String) -> [LayerDiagnostic] {
    guard let entry = table.entry(named: frontEnd), entry.role == .frontEnd else { return [] }
    return run(files, target: frontEnd)
  }

  /// The imports in `files` that `target` may not make; nothing for a target the table
  /// does not list or lets depend on anything.
  public func run(_ files: [SourceFile], target: String) -> [LayerDiagnostic] {
    guard let entry = table.entry(named: target), let targets = entry.targets else { return [] }
    let allowed = Set(targets).union(entry.products ?? []).union(Self.systemModules)
    let listed = (targets + (entry.products ?? [])).joined(separator: ", ")
    let advice =
      entry.role == .frontEnd ? "reach data through Scripting and the repositories" : "declare the dependency, if the table allows it"
    var violations: [LayerDiagnostic] = []
    for file in files {
      let tree = Parser.parse(source: file.text)
      let converter = SourceLocationConverter(fileName: file.path, tree: tree)
      let collector = ImportCollector(viewMode: .sourceAccurate)
      collector.walk(tree)
      for declaration in collector.imports {
        guard let module = declaration.path.first?.name.text, module != target, !allowed.contains(module) else { continue }
        let location = declaration.path.startLocation(converter: converter)
        let role = entry.role == .frontEnd ? "front end" : "target"
        violations.append(
          LayerDiagnostic(
            path: file.path, line: location.line, column: location.column,
            message: "\(role) '\(target)' imports '\(module)', which it may not depend on (allowed: \(listed.isEmpty ? "none" : listed), "
              + "and the system's modules); \(advice)"))
      }
    }
    return violations
  }
}

/// Every `import` declaration of a file, nested in `#if` blocks too.
final class ImportCollector: SyntaxVisitor {
  var imports: [ImportDeclSyntax] = []

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    imports.append(node)
    return .skipChildren
  }

  /// The modules `file` imports (`import struct Persistence.Record` imports Persistence).
  static func modules(of file: SourceFile) -> Set<String> {
    let collector = ImportCollector(viewMode: .sourceAccurate)
    collector.walk(Parser.parse(source: file.text))
    return Set(collector.imports.compactMap { $0.path.first?.name.text })
  }
}
