import SwiftParser
import SwiftSyntax

/// The front ends' imports: a front end (Scripting, an app) may import only the modules
/// its table entry allows and the system's own, so a front end cannot reach past the
/// repositories by importing a backend (`import GRDB` and writing SQL) even where the
/// package would let the compiler find the module.
///
/// ```swift
/// let violations = ImportCheck(table: .forager).run(files, frontEnd: "forager")
/// ```
public struct ImportCheck: Sendable {
  /// Modules of the toolchain and the C library, always allowed.
  public static let systemModules: Set<String> = [
    "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl",
    "Darwin", "Synchronization", "RegexBuilder",
  ]

  public var table: LayerTable

  public init(table: LayerTable) {
    self.table = table
  }

  /// The imports in `files` that `frontEnd` may not make; nothing for a name the table
  /// does not list as a front end.
  public func run(_ files: [SourceFile], frontEnd: String) -> [LayerDiagnostic] {
    guard let entry = table.entry(named: frontEnd), entry.role == .frontEnd else { return [] }
    let allowed = Set(entry.targets ?? []).union(entry.products ?? []).union(Self.systemModules)
    var violations: [LayerDiagnostic] = []
    for file in files {
      let tree = Parser.parse(source: file.text)
      let converter = SourceLocationConverter(fileName: file.path, tree: tree)
      let collector = ImportCollector(viewMode: .sourceAccurate)
      collector.walk(tree)
      for declaration in collector.imports {
        guard let module = declaration.path.first?.name.text, entry.targets != nil, !allowed.contains(module) else { continue }
        let location = declaration.path.startLocation(converter: converter)
        let listed = ((entry.targets ?? []) + (entry.products ?? [])).joined(separator: ", ")
        violations.append(LayerDiagnostic(
          path: file.path, line: location.line, column: location.column,
          message: "front end '\(frontEnd)' imports '\(module)', which it may not depend on (allowed: \(listed), and the system's modules); "
            + "reach data through Scripting and the repositories"))
      }
    }
    return violations
  }
}

/// Every `import` declaration of a file, nested in `#if` blocks too.
private final class ImportCollector: SyntaxVisitor {
  var imports: [ImportDeclSyntax] = []

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    imports.append(node)
    return .skipChildren
  }
}
