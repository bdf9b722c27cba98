import SwiftParser
import SwiftSyntax

/// The names the front-end rule looks for, read from the Model, Persistence and
/// Repositories sources so that a new entity kind or Store method is covered without
/// editing the checker.
///
/// ```swift
/// let vocabulary = Vocabulary.scan(
///   model: try SourceFile.readAll(["Modules/Model"]),
///   persistence: try SourceFile.readAll(["Modules/Persistence"]))
/// vocabulary.entityTypes  // ["Book", "Category", …]
/// ```
public struct Vocabulary: Sendable, Equatable {
  /// Types whose inheritance clause names `Entity` (directly or through a protocol that
  /// refines it), including `extension X: Entity`.
  public var entityTypes: Set<String>
  /// Raw store record types (`Record`) and the sync engine's change types.
  public var recordTypes: Set<String>
  /// Methods declared in `protocol StoreWriter` and its extensions: the Store's mutating API.
  public var writerMethods: Set<String>
  /// Methods of each `…Repository` type found in the Repositories sources, for fix hints.
  public var repositoryMethods: [String: Set<String>]
  /// `Entity` and the protocols that refine it: a generic parameter constrained to one of
  /// them (`<E: Entity>`) stands for an entity type, and constructing it creates an entity.
  public var entityProtocols: Set<String>

  public init(
    entityTypes: Set<String>,
    recordTypes: Set<String> = Vocabulary.rawTypes,
    writerMethods: Set<String>,
    repositoryMethods: [String: Set<String>] = [:],
    entityProtocols: Set<String> = [Vocabulary.entityProtocol]
  ) {
    self.entityTypes = entityTypes
    self.recordTypes = recordTypes
    self.writerMethods = writerMethods
    self.repositoryMethods = repositoryMethods
    self.entityProtocols = entityProtocols
  }

  /// The requirement of the sync engine's `CloudStore` that appends a batch to the
  /// household's log: a front end that calls it puts changes no repository or sync engine
  /// made into every device's log.
  public static let cloudWriterMethods: Set<String> = ["push"]

  /// What only Persistence and Sync build: the raw store record, and a change or a batch
  /// of changes for the cloud (a front end that built one and pushed it would bypass
  /// the repositories and the sync engine).
  public static let syncTypes: Set<String> = ["RecordChange", "ChangeBatch", "StampedValue"]
  public static let rawTypes: Set<String> = syncTypes.union(["Record"])

  /// The protocol whose conformers are entities.
  public static let entityProtocol = "Entity"
  /// The protocol whose requirements are the Store's mutating API.
  public static let writerProtocol = "StoreWriter"

  /// Builds the vocabulary from module sources.
  ///
  /// - Parameter model: the Model module's files (entity types; `Record` if declared there).
  /// - Parameter persistence: the Persistence module's files (`protocol StoreWriter`).
  /// - Parameter repositories: the Repositories module's files, used only for fix hints.
  public static func scan(
    model: [SourceFile],
    persistence: [SourceFile],
    repositories: [SourceFile] = []
  ) -> Vocabulary {
    let modelDecls = DeclarationCollector.collect(model + persistence)

    // Protocols that are Entity or refine it, to a fixed point.
    var entityProtocols: Set<String> = [entityProtocol]
    var grew = true
    while grew {
      grew = false
      for decl in modelDecls where decl.kind == .protocol && !entityProtocols.contains(decl.name) {
        if !decl.inherited.isDisjoint(with: entityProtocols) {
          entityProtocols.insert(decl.name)
          grew = true
        }
      }
    }
    let modelOnly = DeclarationCollector.collect(model)
    let entities = Set(
      modelOnly.filter { $0.kind != .protocol && !$0.inherited.isDisjoint(with: entityProtocols) }.map(\.name)
    )

    let writers =
      modelDecls
      .filter { $0.name == writerProtocol && ($0.kind == .protocol || $0.kind == .extension) }
      .reduce(into: Set<String>()) { $0.formUnion($1.functions) }

    var repositoryMethods: [String: Set<String>] = [:]
    for decl in DeclarationCollector.collect(repositories)
    where decl.name.hasSuffix("Repository") && decl.kind != .protocol {
      repositoryMethods[decl.name, default: []].formUnion(decl.functions)
    }

    return Vocabulary(
      entityTypes: entities,
      recordTypes: Vocabulary.rawTypes,
      writerMethods: writers,
      repositoryMethods: repositoryMethods,
      entityProtocols: entityProtocols
    )
  }

  /// The repository a front end should use instead of constructing `type`, as a phrase
  /// for an error message: "use CategoryRepository.getOrCreate".
  public func fixHint(for type: String) -> String {
    let repository = "\(type)Repository"
    guard let methods = repositoryMethods[repository] else {
      return repositoryMethods.isEmpty
        ? "create it through \(repository)"
        : "create it through the repository that owns it (there is no \(repository))"
    }
    for preferred in ["getOrCreate", "create"] where methods.contains(preferred) {
      return "use \(repository).\(preferred)"
    }
    return "create it through \(repository)"
  }
}

/// One type or extension declaration: its (last) name, what its inheritance clause
/// names, and the functions declared directly in its body.
struct TypeDeclaration: Equatable {
  enum Kind { case type, `protocol`, `extension` }
  var kind: Kind
  var name: String
  var inherited: Set<String>
  var functions: Set<String>
}

/// Walks files and lists every struct, class, enum, actor, protocol and extension.
final class DeclarationCollector: SyntaxVisitor {
  private(set) var declarations: [TypeDeclaration] = []

  static func collect(_ files: [SourceFile]) -> [TypeDeclaration] {
    let collector = DeclarationCollector(viewMode: .sourceAccurate)
    for file in files {
      collector.walk(Parser.parse(source: file.text))
    }
    return collector.declarations
  }

  private func record(
    _ kind: TypeDeclaration.Kind,
    _ name: String,
    _ inheritance: InheritanceClauseSyntax?,
    _ members: MemberBlockSyntax
  ) {
    let functions = members.members.compactMap { $0.decl.as(FunctionDeclSyntax.self)?.name.text }
    declarations.append(
      TypeDeclaration(
        kind: kind,
        name: name,
        inherited: Set(inheritance?.inheritedTypes.flatMap { typeNames($0.type) } ?? []),
        functions: Set(functions)
      )
    )
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    record(.type, node.name.text, node.inheritanceClause, node.memberBlock)
    return .visitChildren
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    record(.type, node.name.text, node.inheritanceClause, node.memberBlock)
    return .visitChildren
  }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    record(.type, node.name.text, node.inheritanceClause, node.memberBlock)
    return .visitChildren
  }

  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    record(.type, node.name.text, node.inheritanceClause, node.memberBlock)
    return .visitChildren
  }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    record(.protocol, node.name.text, node.inheritanceClause, node.memberBlock)
    return .visitChildren
  }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    if let name = typeNames(node.extendedType).last {
      record(.extension, name, node.inheritanceClause, node.memberBlock)
    }
    return .visitChildren
  }
}

/// The names a type expression refers to at its top level: `Entity` → ["Entity"],
/// `Model.Entity` → ["Entity"], `Entity & Hashable` → ["Entity", "Hashable"].
/// Generic arguments are not looked into.
func typeNames(_ type: TypeSyntax) -> [String] {
  if let identifier = type.as(IdentifierTypeSyntax.self) {
    return [identifier.name.text]
  }
  if let member = type.as(MemberTypeSyntax.self) {
    return [member.name.text]
  }
  if let composition = type.as(CompositionTypeSyntax.self) {
    return composition.elements.flatMap { typeNames($0.type) }
  }
  if let attributed = type.as(AttributedTypeSyntax.self) {
    return typeNames(attributed.baseType)
  }
  return []
}
