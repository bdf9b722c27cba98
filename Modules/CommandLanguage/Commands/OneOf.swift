/// Arguments and options of a command of which at most one may be given (`--servings` or
/// `--scale`), or exactly one when required (`open PATH` or `--memory`). Declared with the
/// spec and checked when the command is parsed, so `--dry-run` finds `open a.sqlite
/// --memory` before anything runs.
///
/// ```swift
/// CommandSpec("open", …, oneOf: [OneOf("path", "--memory", required: true)]) { … }
/// ```
public struct OneOf: Sendable, Hashable {
  /// Option names with their dashes ("--memory") and parameter names ("path").
  public let names: [String]
  /// One of them must be given.
  public let isRequired: Bool

  /// A group of `names`; `required`: one must be given.
  public init(_ names: String..., required: Bool = false) {
    self.names = names
    self.isRequired = required
  }

  /// The names given in a command's bound arguments and options, in declared order.
  func given(arguments: [String: [String]], options: [String: [String]]) -> [String] {
    names.filter { name in
      name.hasPrefix("--") ? options[String(name.dropFirst(2))] != nil : arguments[name] != nil
    }
  }

  /// "PATH or --memory", as usage writes them.
  func text<Context>(_ spec: CommandSpec<Context>) -> String {
    let shown = names.map { name in
      name.hasPrefix("--") ? name : spec.parameters.first { $0.name == name }?.placeholder ?? name.uppercased()
    }
    return shown.count == 2 ? "\(shown[0]) or \(shown[1])" : shown.dropLast().joined(separator: ", ") + " or " + shown[shown.count - 1]
  }
}
