import SwiftSyntax

/// Walks one file and records constructions of entity/record types and references to the
/// Store's mutating API. Annotations are applied later, by `SourceReport`.
final class FrontEndVisitor: SyntaxVisitor {
  /// A qualified `Model.Category` is still the entity type.
  static let modelModule = "Model"

  let constructible: [String: Constructible]
  let writerMethods: Set<String>
  /// `Entity` and its refinements: a generic parameter constrained to one is an entity type.
  let entityProtocols: Set<String>
  /// Functions and initializers declared in the checked files (``ParameterCollector``).
  let parameters: [String: [[ParameterCollector.Parameter]]]
  /// Names bound to an entity's or record's metatype (``MetatypeCollector``).
  let metatypes: [String: Constructible]
  let converter: SourceLocationConverter
  private(set) var findings: [Finding] = []

  init(
    constructible: [String: Constructible], writerMethods: Set<String>, entityProtocols: Set<String> = [Vocabulary.entityProtocol],
    parameters: [String: [[ParameterCollector.Parameter]]] = [:], metatypes: [String: Constructible] = [:],
    converter: SourceLocationConverter
  ) {
    self.constructible = constructible
    self.writerMethods = writerMethods
    self.entityProtocols = entityProtocols
    self.parameters = parameters
    self.metatypes = metatypes
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  // `Category(…)` and the unapplied `Category(displayName:)`.
  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    let isMemberName = node.parent?.as(MemberAccessExprSyntax.self)?.declName.id == node.id
    // `insertRecord(…)` with an implicit `self`, inside a type or an extension (of a
    // Store writer, or of anything that could hold one), called or referenced unapplied
    // (`let put = updateRecord(_:)`).
    if writerMethods.contains(name), !isMemberName, isInsideType(Syntax(node)) {
      report(node, .storeMutation(method: name))
      return .visitChildren
    }
    if isMemberName { return .visitChildren }  // `x.Category`: judged as a member access.
    guard let type = constructible[name] ?? someEntity(named: name, at: Syntax(node)) else { return .visitChildren }
    if isCallee(Syntax(node)) {
      report(node, .construction(type, written: "\(name)(…)"))
    } else if let labels = node.argumentNames {
      report(node, .construction(type, written: "\(name)(\(labels.arguments.map { "\($0.name.text):" }.joined()))"))
    }
    return .visitChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.declName.baseName
    if name.tokenKind == .keyword(.`init`) {
      if let base = node.base {
        // `Category.init(…)`, `Model.Category.init`, unapplied `Category.init`.
        if let (type, written) = constructibleReference(base) {
          let call = isCallee(Syntax(node)) ? "(…)" : ""
          report(node, .construction(type, written: "\(written).init\(call)"))
        } else if let reference = base.as(DeclReferenceExprSyntax.self),
          let type = metatypes[reference.baseName.text] ?? someEntity(named: reference.baseName.text, at: Syntax(node))
        {
          // `T.init(…)` where `T` holds `Category.self`, or is a generic `T: Entity`.
          let call = isCallee(Syntax(node)) ? "(…)" : ""
          report(node, .construction(type, written: "\(reference.baseName.text).init\(call)"))
        }
      } else if isCallee(Syntax(node)), let call = node.parent,
        let expected = contextualType(of: call), let type = constructibleType(expected, in: constructible)
      {
        // `.init(…)` whose contextual type is written down.
        report(node, .construction(type, written: ".init(…)"))
      }
      return .visitChildren
    }
    if name.tokenKind == .keyword(.self), let base = node.base, let (type, written) = constructibleReference(base),
      case .record(let recordType) = type, Vocabulary.syncTypes.contains(recordType),
      node.parent?.as(MemberAccessExprSyntax.self)?.declName.baseName.tokenKind != .keyword(.`init`)
    {
      // `ChangeBatch.self`, as a decoder is given it: a sync change made from bytes.
      report(node, .construction(type, written: "\(written).self"))
      return .visitChildren
    }
    if let base = node.base {
      if base.as(DeclReferenceExprSyntax.self)?.baseName.text == Self.modelModule,
        let type = constructible[name.text],
        isCallee(Syntax(node)) || node.declName.argumentNames != nil
      {
        report(node, .construction(type, written: "\(Self.modelModule).\(name.text)(…)"))
      } else if writerMethods.contains(name.text) {
        report(node.declName, .storeMutation(method: name.text))
      } else if Vocabulary.cloudWriterMethods.contains(name.text), isCallee(Syntax(node)) || node.declName.argumentNames != nil {
        report(node.declName, .cloudPush(method: name.text))
      }
    }
    return .visitChildren
  }

  /// Whether `node` sits in a type's or an extension's body, where a bare call may
  /// resolve to a method through an implicit `self`.
  private func isInsideType(_ node: Syntax) -> Bool {
    var current = node.parent
    while let parent = current {
      if parent.is(ExtensionDeclSyntax.self) || parent.is(StructDeclSyntax.self) || parent.is(ClassDeclSyntax.self)
        || parent.is(EnumDeclSyntax.self) || parent.is(ActorDeclSyntax.self) || parent.is(ProtocolDeclSyntax.self)
      {
        return true
      }
      current = parent.parent
    }
    return false
  }

  private func report(_ node: some SyntaxProtocol, _ kind: Finding.Kind) {
    let location = node.startLocation(converter: converter)
    findings.append(Finding(kind: kind, line: location.line, column: location.column))
  }

  /// A generic parameter constrained to an entity protocol, as a constructible type.
  private func someEntity(named name: String, at node: Syntax) -> Constructible? {
    GenericEntities.constraint(of: name, at: node, entityProtocols: entityProtocols).map {
      .someEntity(parameter: name, protocol: $0)
    }
  }

  /// `Category`, `Model.Category` or `Category.self` as an expression (the base of `.init`).
  private func constructibleReference(_ expr: ExprSyntax) -> (Constructible, String)? {
    if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
      let base = member.base, let (type, written) = constructibleReference(base)
    {
      return (type, written + ".self")
    }
    if let reference = expr.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil,
      let type = constructible[reference.baseName.text]
    {
      return (type, reference.baseName.text)
    }
    if let member = expr.as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == Self.modelModule,
      let type = constructible[member.declName.baseName.text]
    {
      return (type, "\(Self.modelModule).\(member.declName.baseName.text)")
    }
    return nil
  }

  /// The type the code around `node` declares for it, where it is written down:
  /// a typed binding's initializer, a `return` (or the only expression of a body) of a
  /// function, property or closure with a declared result type, an element of an array
  /// literal with such a type, an argument of a function or initializer declared in the
  /// checked files. Looks through `try`, `await`, parentheses and `?:`.
  func contextualType(of node: Syntax) -> TypeSyntax? {
    var current = node
    while let parent = current.parent {
      if let argument = parent.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
        call.arguments.contains(where: { $0.id == argument.id })
      {
        return parameterType(of: argument, in: call)
      } else if parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
        current = parent
      } else if let ternary = parent.as(TernaryExprSyntax.self),
        ternary.thenExpression.id == current.id || ternary.elseExpression.id == current.id
      {
        current = parent
      } else if let sequence = unfoldedTernary(around: current, parent: parent) {
        current = Syntax(sequence)
      } else if let element = parent.as(LabeledExprSyntax.self), element.label == nil,
        let tuple = element.parent?.parent?.as(TupleExprSyntax.self), tuple.elements.count == 1
      {
        current = Syntax(tuple)
      } else if let initializer = parent.as(InitializerClauseSyntax.self) {
        return initializer.parent?.as(PatternBindingSyntax.self)?.typeAnnotation?.type
      } else if parent.is(ReturnStmtSyntax.self) {
        return declaredResultType(enclosing: parent)
      } else if let item = parent.as(CodeBlockItemSyntax.self) {
        return implicitReturnType(of: item)
      } else if parent.is(ArrayElementSyntax.self), let array = parent.parent?.parent?.as(ArrayExprSyntax.self) {
        return contextualType(of: Syntax(array)).flatMap(elementType)
      } else {
        return nil
      }
    }
    return nil
  }

  /// The declared type of the parameter an argument is passed to, when the callee —
  /// `name(…)`, `x.name(…)` or `Type(…)` — is declared in the checked files and every
  /// declaration of that name with a parameter for the argument agrees on its type.
  /// The n-th argument with a label goes to the n-th parameter with that label.
  private func parameterType(of argument: LabeledExprSyntax, in call: FunctionCallExprSyntax) -> TypeSyntax? {
    let callee: String
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      callee = reference.baseName.text
    } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil {
      callee = member.declName.baseName.text
    } else {
      return nil
    }
    guard let candidates = parameters[callee] else { return nil }
    let label = argument.label?.text
    let arguments = Array(call.arguments)
    guard let index = arguments.firstIndex(where: { $0.id == argument.id }) else { return nil }
    let rank = arguments[..<index].filter { $0.label?.text == label }.count
    let types = candidates.compactMap { signature -> TypeSyntax? in
      let matching = signature.filter { $0.label == label }
      return rank < matching.count ? matching[rank].type : nil
    }
    guard let first = types.first, types.allSatisfy({ $0.trimmedDescription == first.trimmedDescription }) else { return nil }
    return first
  }

  /// The parser leaves `c ? a : b` unfolded, as a sequence `c`, `? a :`, `b`: the sequence
  /// when `node` is its `a` or its `b`.
  private func unfoldedTernary(around node: Syntax, parent: Syntax) -> SequenceExprSyntax? {
    if let ternary = parent.as(UnresolvedTernaryExprSyntax.self), ternary.thenExpression.id == node.id {
      return ternary.parent?.parent?.as(SequenceExprSyntax.self).flatMap(isTernary)
    }
    if parent.is(ExprListSyntax.self), let sequence = parent.parent?.as(SequenceExprSyntax.self),
      sequence.elements.last?.id == node.id
    {
      return isTernary(sequence)
    }
    return nil
  }

  private func isTernary(_ sequence: SequenceExprSyntax) -> SequenceExprSyntax? {
    let elements = Array(sequence.elements)
    guard elements.count == 3, elements[1].is(UnresolvedTernaryExprSyntax.self) else { return nil }
    return sequence
  }

  /// The declared result type when `item` is the single expression of a body (an implicit return).
  private func implicitReturnType(of item: CodeBlockItemSyntax) -> TypeSyntax? {
    guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
      let owner = list.parent
    else { return nil }
    if owner.is(ClosureExprSyntax.self) || owner.is(AccessorBlockSyntax.self) {
      return declaredResultType(enclosing: Syntax(list))
    }
    if owner.is(CodeBlockSyntax.self),
      let body = owner.parent, body.is(FunctionDeclSyntax.self) || body.is(AccessorDeclSyntax.self)
    {
      return declaredResultType(enclosing: Syntax(list))
    }
    return nil
  }

  /// The result type declared by the nearest function, closure, subscript or computed property.
  private func declaredResultType(enclosing node: Syntax) -> TypeSyntax? {
    var current = node.parent
    while let ancestor = current {
      if let function = ancestor.as(FunctionDeclSyntax.self) {
        return function.signature.returnClause?.type
      }
      if let closure = ancestor.as(ClosureExprSyntax.self) {
        return closure.signature?.returnClause?.type
      }
      if let subscriptDecl = ancestor.as(SubscriptDeclSyntax.self) {
        return subscriptDecl.returnClause.type
      }
      if let binding = ancestor.as(PatternBindingSyntax.self) {
        return binding.typeAnnotation?.type
      }
      if ancestor.is(InitializerDeclSyntax.self) || ancestor.is(DeinitializerDeclSyntax.self) {
        return nil
      }
      if let accessor = ancestor.as(AccessorDeclSyntax.self), accessor.accessorSpecifier.tokenKind != .keyword(.get) {
        return nil  // set, willSet, didSet: no value to return.
      }
      current = ancestor.parent
    }
    return nil
  }

  /// `[T]`, `Array<T>`, `[T]?` → `T`.
  private func elementType(_ type: TypeSyntax) -> TypeSyntax? {
    if let array = type.as(ArrayTypeSyntax.self) {
      return array.element
    }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return elementType(optional.wrappedType)
    }
    if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Array",
      let arguments = generic.genericArgumentClause?.arguments, arguments.count == 1,
      case .type(let element) = arguments.first?.argument
    {
      return element
    }
    return nil
  }
}

/// Whether `node` is the called expression of a function call.
func isCallee(_ node: Syntax) -> Bool {
  guard let call = node.parent?.as(FunctionCallExprSyntax.self) else { return false }
  return call.calledExpression.id == node.id
}
