/// A command with its arguments bound and checked, ready to run.
public struct Invocation: Sendable {
  public let spec: CommandSpec
  /// Positional arguments by parameter name; `.words` parameters may hold several.
  public let arguments: [String: [String]]
  /// Option values by option name; a flag holds one empty value.
  public let options: [String: [String]]
  /// The name of each option value in the order given (block lines after the command
  /// line's options): which `--group` an `--ingredient` follows.
  public var optionOrder: [String] = []
  /// 1-based line where the command starts (0 outside a script).
  public let line: Int
  /// The command as written, for messages and progress.
  public let text: String

  /// `--json` was given.
  public var wantsJSON: Bool { options["json"] != nil }
  /// `--help` was given.
  public var wantsHelp: Bool { options["help"] != nil }
  public var command: String { spec.name }

  /// A positional argument; empty when optional and not given.
  public func argument(_ name: String) -> String { arguments[name]?.first ?? "" }
  public func optionalArgument(_ name: String) -> String? { arguments[name]?.first }
  public func argumentList(_ name: String) -> [String] { arguments[name] ?? [] }

  /// The value of an option given once, or nil.
  public func option(_ name: String) -> String? { options[name]?.last }
  /// The value of an option its spec declares required: the parser refuses a command
  /// without it, so it is always there.
  public func required(_ name: String) -> String { option(name) ?? "" }
  /// Every value of a repeatable option, in order.
  public func values(_ name: String) -> [String] { options[name] ?? [] }
  public func flag(_ name: String) -> Bool { options[name] != nil }

  /// Every value of the repeatable option `name`, each with the last value of `heading`
  /// given before it (nil before the first): `--group Sauce --ingredient "1 onion"`.
  public func values(_ name: String, under heading: String) -> [(value: String, heading: String?)] {
    var seen: [String: Int] = [:]
    var current: String?
    var result: [(value: String, heading: String?)] = []
    for option in optionOrder where option == name || option == heading {
      let index = seen[option, default: 0]
      seen[option] = index + 1
      let value = values(option)[index]
      if option == heading { current = value } else { result.append((value, current)) }
    }
    return result
  }

  /// An integer option (already checked when parsed).
  public func integer(_ name: String) -> Int? { option(name).flatMap { Int($0) } }

  /// A yes/no option (already checked when parsed).
  public func boolean(_ name: String) -> Bool? { option(name).flatMap(ValueCheck.boolean) }

  /// A failure of this command, naming the argument when there is one.
  public func failure(_ reason: String, argument: String? = nil, result: CommandResult? = nil) -> ScriptError {
    ScriptError(.failed, command: command, argument: argument, reason: reason, line: line == 0 ? nil : line, result: result)
  }

  /// An `expect` that did not hold.
  public func expectationFailure(_ reason: String) -> ScriptError {
    ScriptError(.expectation, command: command, reason: reason, line: line == 0 ? nil : line)
  }
}
