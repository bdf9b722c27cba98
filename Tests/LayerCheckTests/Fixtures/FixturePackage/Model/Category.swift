public protocol Entity: Hashable {}

public struct Category: Entity {
  public var displayName: String

  public init(displayName: String) {
    self.displayName = displayName
  }
}

public struct Record: Hashable {
  public var displayName: String

  public init(displayName: String) {
    self.displayName = displayName
  }
}
