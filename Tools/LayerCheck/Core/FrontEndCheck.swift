import SwiftParser
import SwiftSyntax

/// The front-end rule: Scripting and the apps never construct entities or raw store
/// records and never call the Store's mutating API; they go through repositories.
///
/// ```swift
/// let report = FrontEndCheck(vocabulary: vocabulary).run(files)
/// report.violations.forEach { print($0) }   // path:line:col: error: …
/// ```
///
/// The check is syntactic: it recognises `Category(…)`, `Model.Category(…)`,
/// `Category.init(…)`, unapplied `Category.init` / `Category(displayName:)`, and `.init(…)`
/// where the contextual type is written down (`let c: Category = .init(…)`,
/// `return .init(…)` from a function declared to return `Category`, the elements of an
/// array literal declared `[Category]`, an argument of a function or initializer declared
/// in the checked files with a `Category` parameter), plus typealiases of entity types
/// declared in the checked files. For the Store it flags member references `x.insertRecord(…)` to any
/// method declared in `protocol StoreWriter`.
public struct FrontEndCheck: Sendable {
  public var vocabulary: Vocabulary

  public init(vocabulary: Vocabulary) {
    self.vocabulary = vocabulary
  }

  /// Checks the files together (a typealias in one file is seen in all).
  public func run(_ files: [SourceFile]) -> SourceReport {
    let trees = files.map { ($0, Parser.parse(source: $0.text)) }

    var constructible: [String: Constructible] = [:]
    for name in vocabulary.entityTypes {
      constructible[name] = .entity(name)
    }
    for name in vocabulary.recordTypes {
      constructible[name] = .record(name)
    }
    let aliases = AliasCollector(constructible: constructible)
    for (_, tree) in trees {
      aliases.walk(tree)
    }
    constructible.merge(aliases.found) { original, _ in original }
    let parameters = ParameterCollector()
    for (_, tree) in trees {
      parameters.walk(tree)
    }
    let metatypes = MetatypeCollector(constructible: constructible, entityProtocols: vocabulary.entityProtocols)
    for (_, tree) in trees {
      metatypes.walk(tree)
    }

    var report = SourceReport(filesChecked: files.count)
    for (file, tree) in trees {
      let converter = SourceLocationConverter(fileName: file.path, tree: tree)
      let visitor = FrontEndVisitor(
        constructible: constructible,
        writerMethods: vocabulary.writerMethods,
        entityProtocols: vocabulary.entityProtocols,
        parameters: parameters.signatures,
        metatypes: metatypes.found,
        converter: converter
      )
      visitor.walk(tree)
      let annotations = AnnotationScanner.scan(tree, converter: converter)
      report.add(findings: visitor.findings, annotations: annotations, path: file.path, vocabulary: vocabulary)
    }
    return report
  }
}

/// The outcome of checking a set of files.
public struct SourceReport: Sendable, Equatable {
  public var filesChecked: Int
  public var violations: [LayerDiagnostic] = []
  public var allowances: [Allowance] = []

  public init(filesChecked: Int, violations: [LayerDiagnostic] = [], allowances: [Allowance] = []) {
    self.filesChecked = filesChecked
    self.violations = violations
    self.allowances = allowances
  }

  /// The lines printed after the diagnostics: counts, then every annotation in use.
  public var summary: [String] {
    let plural = violations.count == 1 ? "violation" : "violations"
    var lines = [
      "layer-check: \(filesChecked) file(s) checked, \(violations.count) \(plural), "
        + "\(allowances.count) line(s) allowed by annotation"
    ]
    for allowance in allowances {
      lines.append("  allowed: \(allowance) [\(allowance.suppressed.joined(separator: "; "))]")
    }
    return lines
  }

  mutating func add(
    findings: [Finding],
    annotations: [Annotation],
    path: String,
    vocabulary: Vocabulary
  ) {
    var byLine: [Int: Annotation] = [:]
    for annotation in annotations {
      if annotation.reason.isEmpty {
        violations.append(
          LayerDiagnostic(
            path: path,
            line: annotation.line,
            column: annotation.column,
            message: "'// layercheck:allow' needs a reason: // layercheck:allow <why this line may do it>"
          )
        )
      } else {
        byLine[annotation.line] = annotation
      }
    }
    var suppressed: [Int: [String]] = [:]
    for finding in findings {
      if byLine[finding.line] != nil {
        suppressed[finding.line, default: []].append(finding.summary)
      } else {
        violations.append(
          LayerDiagnostic(
            path: path,
            line: finding.line,
            column: finding.column,
            message: finding.message(vocabulary)
          )
        )
      }
    }
    for annotation in byLine.values.sorted(by: { $0.line < $1.line }) {
      if let lines = suppressed[annotation.line] {
        allowances.append(
          Allowance(path: path, line: annotation.line, reason: annotation.reason, suppressed: lines)
        )
      } else {
        violations.append(
          LayerDiagnostic(
            path: path,
            line: annotation.line,
            column: annotation.column,
            message: "'// layercheck:allow' allows nothing on this line; "
              + "put it on the line of the violation or remove it"
          )
        )
      }
    }
    violations.sort { ($0.path, $0.line ?? 0, $0.column ?? 0) < ($1.path, $1.line ?? 0, $1.column ?? 0) }
  }
}

/// A type a front end must not construct.
enum Constructible: Equatable {
  case entity(String)
  case record(String)
  /// A generic parameter (or an existential metatype) that stands for any type conforming
  /// to the entity protocol named: `E` of `<E: Entity>`, a value of `any Entity.Type`.
  case someEntity(parameter: String, protocol: String)
}

/// What the visitor saw, before annotations are applied.
struct Finding: Equatable {
  enum Kind: Equatable {
    /// `written` is how it appeared: "Category(…)", ".init(…)", "Category.init".
    case construction(Constructible, written: String)
    case storeMutation(method: String)
    /// A call of the cloud's log-appending API (``Vocabulary/cloudWriterMethods``).
    case cloudPush(method: String)
  }

  var kind: Kind
  var line: Int
  var column: Int

  var summary: String {
    switch kind {
    case .construction(_, let written): written
    case .storeMutation(let method): "\(method)(…)"
    case .cloudPush(let method): "\(method)(…)"
    }
  }

  func message(_ vocabulary: Vocabulary) -> String {
    switch kind {
    case .construction(.entity(let type), let written):
      "'\(written)' creates a \(type) outside a repository; \(vocabulary.fixHint(for: type))"
    case .construction(.record(let type), let written) where Vocabulary.syncTypes.contains(type):
      "'\(written)' builds a sync change (\(type)) in a front end; only the sync engine writes changes for the cloud: "
        + "change entities through their repositories and run sync"
    case .construction(.record(let type), let written):
      "'\(written)' constructs a raw store record (\(type)) in a front end; "
        + "create and change entities through their repositories (e.g. CategoryRepository.getOrCreate)"
    case .construction(.someEntity(let parameter, let entityProtocol), let written):
      "'\(written)' creates an entity (\(parameter): \(entityProtocol)) outside a repository; "
        + "create entities through their repositories (e.g. CategoryRepository.getOrCreate)"
    case .storeMutation(let method):
      "'\(method)(…)' calls the Store's mutating API (StoreWriter.\(method)) from a front end; "
        + "change entities through their repositories (e.g. CategoryRepository)"
    case .cloudPush(let method):
      "'\(method)(…)' appends a batch to the household's log (CloudStore.\(method)) from a front end; "
        + "only the sync engine pushes: change entities through their repositories and run sync"
    }
  }
}

/// The parameters of the functions and initializers declared in the checked files, so
/// that `.init(…)` passed as an argument to one of them can be typed. Functions are listed
/// under their base name, initializers under their type's name (how a call names them).
final class ParameterCollector: SyntaxVisitor {
  struct Parameter {
    /// The argument label; nil for `_`.
    let label: String?
    let type: TypeSyntax
  }

  private(set) var signatures: [String: [[Parameter]]] = [:]

  init() { super.init(viewMode: .sourceAccurate) }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    signatures[node.name.text, default: []].append(Self.parameters(node.signature.parameterClause))
    return .visitChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    if let type = Self.enclosingTypeName(node) {
      signatures[type, default: []].append(Self.parameters(node.signature.parameterClause))
    }
    return .visitChildren
  }

  private static func parameters(_ clause: FunctionParameterClauseSyntax) -> [Parameter] {
    clause.parameters.map { parameter in
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
      return Parameter(label: label, type: parameter.type)
    }
  }

  private static func enclosingTypeName(_ node: some SyntaxProtocol) -> String? {
    var current = node.parent
    while let ancestor = current {
      if let decl = ancestor.as(StructDeclSyntax.self) { return decl.name.text }
      if let decl = ancestor.as(ClassDeclSyntax.self) { return decl.name.text }
      if let decl = ancestor.as(EnumDeclSyntax.self) { return decl.name.text }
      if let decl = ancestor.as(ActorDeclSyntax.self) { return decl.name.text }
      if let decl = ancestor.as(ExtensionDeclSyntax.self) { return decl.extendedType.trimmedDescription }
      current = ancestor.parent
    }
    return nil
  }
}

/// Finds `typealias X = Category` in the checked files.
final class AliasCollector: SyntaxVisitor {
  let constructible: [String: Constructible]
  private(set) var found: [String: Constructible] = [:]

  init(constructible: [String: Constructible]) {
    self.constructible = constructible
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
    if let target = constructibleType(node.initializer.value, in: constructible) {
      found[node.name.text] = target
    }
    return .skipChildren
  }
}

/// The constructible type a written type names, looking through optionals:
/// `Category`, `Model.Category`, `Category?`.
func constructibleType(_ type: TypeSyntax, in constructible: [String: Constructible]) -> Constructible? {
  if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
    return constructible[identifier.name.text]
  }
  if let member = type.as(MemberTypeSyntax.self),
    member.baseType.as(IdentifierTypeSyntax.self)?.name.text == FrontEndVisitor.modelModule
  {
    return constructible[member.name.text]
  }
  if let optional = type.as(OptionalTypeSyntax.self) {
    return constructibleType(optional.wrappedType, in: constructible)
  }
  if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
    return constructibleType(optional.wrappedType, in: constructible)
  }
  return nil
}
