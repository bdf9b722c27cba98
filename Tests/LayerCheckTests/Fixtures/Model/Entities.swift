// A stand-in for Modules/Model: entity types are found by their inheritance clauses.
public protocol Entity {}
public protocol UniqueEntity: Entity {}

public struct Category: Entity, Hashable {
  public var displayName: String
}

public struct Tag: UniqueEntity {
  public var displayName: String
}

public struct Recipe: Model.Entity {
  public var displayName: String
}

public struct Book {
  public var title: String
}

extension Book: Entity {}

/// Not an entity: no Entity in its inheritance clause.
public struct EntityKind: Hashable {
  public var rawValue: String
}

public struct Record {
  public var kind: EntityKind
}
