/// Which targets may depend on which; the data lives in `AllowedEdges.swift`.
public struct LayerTable: Sendable {
  public enum Role: Sendable, Equatable {
    /// A library module under Modules/.
    case module
    /// Scripting and the apps: the front-end rule checks their sources too.
    case frontEnd
    /// Tools/: checkers, plugins, benchmarks.
    case tool
    /// Test support code.
    case testSupport
  }

  public struct Entry: Sendable, Equatable {
    public var name: String
    public var role: Role
    /// Local targets it may depend on; nil means any.
    public var targets: [String]?
    /// External products it may depend on (by product name); nil means any.
    public var products: [String]?

    /// What the error message lists after "allowed:".
    var allowedDescription: String {
      guard let targets, let products else { return "anything" }
      let all = targets + products
      return all.isEmpty ? "none" : all.joined(separator: ", ")
    }
  }

  public var entries: [Entry]

  public init(_ entries: [Entry]) {
    self.entries = entries
  }

  public func entry(named name: String) -> Entry? {
    entries.first { $0.name == name }
  }

  /// The targets the front-end rule applies to.
  public var frontEnds: [String] {
    entries.filter { $0.role == .frontEnd }.map(\.name)
  }
}

extension LayerTable.Entry {
  public static func module(_ name: String, targets: [String] = [], products: [String] = []) -> Self {
    Self(name: name, role: .module, targets: targets, products: products)
  }

  public static func frontEnd(_ name: String, targets: [String], products: [String] = []) -> Self {
    Self(name: name, role: .frontEnd, targets: targets, products: products)
  }

  public static func tool(_ name: String, targets: [String] = [], products: [String] = []) -> Self {
    Self(name: name, role: .tool, targets: targets, products: products)
  }

  /// A tool that may depend on anything (a benchmark comparing layers side by side).
  public static func unrestrictedTool(_ name: String) -> Self {
    Self(name: name, role: .tool, targets: nil, products: nil)
  }

  /// Test support: any local target, any product.
  public static func testSupport(_ name: String) -> Self {
    Self(name: name, role: .testSupport, targets: nil, products: nil)
  }
}
