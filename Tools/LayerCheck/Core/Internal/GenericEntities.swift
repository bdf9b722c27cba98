import SwiftSyntax

/// Generic parameters that stand for some entity type: `E` of `func make<E: Entity>`,
/// `struct Box<E> where E: UniqueEntity`. Constructing one (`E(record:)`, `E.init`) creates
/// an entity as surely as `Category(…)` does.
enum GenericEntities {
  /// The entity protocol that a generic parameter named `name`, declared by a declaration
  /// enclosing `node`, is constrained to; nil when no enclosing declaration has such a
  /// parameter.
  static func constraint(of name: String, at node: Syntax, entityProtocols: Set<String>) -> String? {
    var current = node.parent
    while let ancestor = current {
      if let clause = ancestor.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause {
        for parameter in clause.parameters where parameter.name.text == name {
          if let inherited = parameter.inheritedType, let found = typeNames(inherited).first(where: entityProtocols.contains) {
            return found
          }
        }
      }
      for requirement in whereClause(of: ancestor)?.requirements ?? [] {
        if case .conformanceRequirement(let conformance) = requirement.requirement,
          conformance.leftType.trimmedDescription == name,
          let found = typeNames(conformance.rightType).first(where: entityProtocols.contains)
        {
          return found
        }
      }
      current = ancestor.parent
    }
    return nil
  }

  /// The entity protocol of an existential metatype, `any Entity.Type` or `Entity.Type`;
  /// nil for any other type.
  static func existentialMetatype(_ type: TypeSyntax, entityProtocols: Set<String>) -> String? {
    var type = type
    if let existential = type.as(SomeOrAnyTypeSyntax.self) { type = existential.constraint }
    guard let meta = type.as(MetatypeTypeSyntax.self), meta.metatypeSpecifier.text == "Type" else { return nil }
    return typeNames(meta.baseType).first(where: entityProtocols.contains)
  }

  private static func whereClause(of node: Syntax) -> GenericWhereClauseSyntax? {
    if let decl = node.as(FunctionDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(InitializerDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(SubscriptDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(StructDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(ClassDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(EnumDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(ActorDeclSyntax.self) { return decl.genericWhereClause }
    if let decl = node.as(ExtensionDeclSyntax.self) { return decl.genericWhereClause }
    return nil
  }
}
