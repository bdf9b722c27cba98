/// Which targets may depend on which; the data lives in `AllowedEdges.swift`.
public struct LayerTable: Sendable {
  public enum Role: Sendable, Equatable {
    /// A library module under Modules/.
    case module
    /// Scripting and the apps: the front-end rule checks their sources too.
    case frontEnd
    /// An executable the front-end rule does not check (the sync server: it creates no entities).
    case app
    /// A C library reached through a module map; it depends on nothing.
    case systemLibrary
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
    /// What the target holds, one line: the module table of Docs/ARCHITECTURE.md.
    public var summary: String
    /// Why it may depend on a target or product, where that is not plain, by name.
    public var reasons: [String: String]

    public init(
      name: String, role: Role, targets: [String]?, products: [String]?, summary: String = "", reasons: [String: String] = [:]
    ) {
      self.name = name
      self.role = role
      self.targets = targets
      self.products = products
      self.summary = summary
      self.reasons = reasons
    }

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
  /// A library module under Modules/.
  public static func module(
    _ name: String, targets: [String] = [], products: [String] = [], summary: String = "", reasons: [String: String] = [:]
  ) -> Self {
    Self(name: name, role: .module, targets: targets, products: products, summary: summary, reasons: reasons)
  }

  /// Scripting or an app whose sources the front-end rule checks.
  public static func frontEnd(
    _ name: String, targets: [String], products: [String] = [], summary: String = "", reasons: [String: String] = [:]
  ) -> Self {
    Self(name: name, role: .frontEnd, targets: targets, products: products, summary: summary, reasons: reasons)
  }

  /// An executable whose sources the front-end rule does not check.
  public static func app(
    _ name: String, targets: [String] = [], products: [String] = [], summary: String = "", reasons: [String: String] = [:]
  ) -> Self {
    Self(name: name, role: .app, targets: targets, products: products, summary: summary, reasons: reasons)
  }

  /// A C library through a module map.
  public static func systemLibrary(_ name: String, summary: String = "") -> Self {
    Self(name: name, role: .systemLibrary, targets: [], products: [], summary: summary)
  }

  /// A checker, plugin, benchmark or fuzzer under Tools/.
  public static func tool(
    _ name: String, targets: [String] = [], products: [String] = [], summary: String = "", reasons: [String: String] = [:]
  ) -> Self {
    Self(name: name, role: .tool, targets: targets, products: products, summary: summary, reasons: reasons)
  }

  /// A tool that may depend on anything (a benchmark comparing layers side by side).
  public static func unrestrictedTool(_ name: String, summary: String = "") -> Self {
    Self(name: name, role: .tool, targets: nil, products: nil, summary: summary)
  }

  /// Test support: any local target, any product.
  public static func testSupport(_ name: String, summary: String = "") -> Self {
    Self(name: name, role: .testSupport, targets: nil, products: nil, summary: summary)
  }
}
