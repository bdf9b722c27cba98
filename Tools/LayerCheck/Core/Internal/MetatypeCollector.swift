import SwiftSyntax

/// Names bound to an entity's or record's metatype in the checked files — `let T =
/// Category.self`, `let T: Category.Type = …`, a parameter `_ type: Category.Type` — so
/// `T.init(…)` is seen as the construction it is.
final class MetatypeCollector: SyntaxVisitor {
  let constructible: [String: Constructible]
  let entityProtocols: Set<String>
  private(set) var found: [String: Constructible] = [:]

  init(constructible: [String: Constructible], entityProtocols: Set<String> = [Vocabulary.entityProtocol]) {
    self.constructible = constructible
    self.entityProtocols = entityProtocols
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
    guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
    if let annotated = node.typeAnnotation?.type, let type = metatype(annotated, at: Syntax(node)) {
      found[name] = type
    } else if let value = node.initializer?.value, let type = metatypeValue(value) {
      found[name] = type
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
    if let type = metatype(node.type, at: Syntax(node)) { found[(node.secondName ?? node.firstName).text] = type }
    return .visitChildren
  }

  /// `Category.Type` (or `Category.Type?`), `E.Type` for a generic `E: Entity`, and
  /// `any Entity.Type`.
  private func metatype(_ type: TypeSyntax, at node: Syntax) -> Constructible? {
    if let optional = type.as(OptionalTypeSyntax.self) { return metatype(optional.wrappedType, at: node) }
    if let entityProtocol = GenericEntities.existentialMetatype(type, entityProtocols: entityProtocols) {
      return .someEntity(parameter: "any \(entityProtocol).Type", protocol: entityProtocol)
    }
    guard let meta = type.as(MetatypeTypeSyntax.self), meta.metatypeSpecifier.text == "Type" else { return nil }
    if let named = constructibleType(meta.baseType, in: constructible) { return named }
    if let generic = meta.baseType.as(IdentifierTypeSyntax.self),
      let entityProtocol = GenericEntities.constraint(of: generic.name.text, at: node, entityProtocols: entityProtocols)
    {
      return .someEntity(parameter: generic.name.text, protocol: entityProtocol)
    }
    return nil
  }

  /// `Category.self` or `Model.Category.self`.
  private func metatypeValue(_ expr: ExprSyntax) -> Constructible? {
    guard let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
      let base = member.base
    else { return nil }
    if let reference = base.as(DeclReferenceExprSyntax.self) { return constructible[reference.baseName.text] }
    if let qualified = base.as(MemberAccessExprSyntax.self),
      qualified.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == FrontEndVisitor.modelModule
    {
      return constructible[qualified.declName.baseName.text]
    }
    return nil
  }
}
