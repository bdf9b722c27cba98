import Foundation

/// What a command accepts and does: the single description from which the parser
/// binds arguments, `help` prints usage, the REPL completes words, and the interpreter
/// runs it.
///
/// `Context` is what the action runs against (the kitchen's session). A ``CommandGroup``
/// collects commands under one heading of `help`; a ``CommandRegistry`` lists the groups.
///
/// ```swift
/// CommandSpec<Session>(
///   "tag add", summary: "Create a tag (or find the one with that name).",
///   parameters: [.rest("name", .name, completion: .names(.tag))],
///   options: [.value("color", "a colour name or hex value")],
///   examples: ["tag add weeknight --color green"]
/// ) { invocation, session in … }
/// ```
public struct CommandSpec<Context>: Sendable {
  /// The words that select the command: "recipe add", "help".
  public let name: String
  /// One line: what the command does.
  public let summary: String
  /// The positional arguments and keywords, in order.
  public let parameters: [Parameter]
  /// The command's own options (``globalOptions`` come on top).
  public let options: [OptionSpec]
  /// The indented block the command accepts after a line ending in `:`, if any.
  public let block: BlockSpec?
  /// Arguments and options that exclude each other (`--servings` or `--scale`).
  public let oneOf: [OneOf]
  /// Longer notes shown by `help COMMAND`.
  public let details: [String]
  /// Command lines `help` shows; each must parse.
  public let examples: [String]
  let action: @Sendable (Invocation<Context>, Context) throws -> CommandResult
  /// The source file that defines the command ("Scripting/DeviceCommands.swift"), so a test
  /// can hold each command to the file its first word names.
  package let fileID: String

  /// A command named by `name`'s words, running `action` with the bound invocation.
  public init(
    _ name: String, summary: String, parameters: [Parameter] = [], options: [OptionSpec] = [],
    block: BlockSpec? = nil, oneOf: [OneOf] = [], details: [String] = [], examples: [String], fileID: String = #fileID,
    action: @escaping @Sendable (Invocation<Context>, Context) throws -> CommandResult
  ) {
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.options = options
    self.block = block
    self.oneOf = oneOf
    self.details = details
    self.examples = examples
    self.action = action
    self.fileID = fileID
  }

  /// The command words: ["recipe", "add"].
  public var words: [String] { name.split(separator: " ").map(String.init) }

  /// The options every command takes besides its own.
  public static var globalOptions: [OptionSpec] {
    [
      .flag("json", "print this command's result as JSON"),
      .flag("help", "show this help instead of running the command"),
    ]
  }

  /// All options this command accepts, its own first.
  public var allOptions: [OptionSpec] { options + Self.globalOptions }

  /// `recipe rename OLD to NEW [--json]`.
  public var usage: String {
    var parts = [name]
    for parameter in parameters {
      switch parameter.role {
      case .keyword: parts.append(parameter.name)
      case .word, .rest:
        parts.append(parameter.isOptional ? "[\(parameter.placeholder)]" : parameter.placeholder)
      case .words:
        parts.append(parameter.isOptional ? "[\(parameter.placeholder)...]" : "\(parameter.placeholder)...")
      case .tail:
        parts.append("\(parameter.placeholder)...")
      }
    }
    for option in options {
      let text = option.takesValue ? "--\(option.name) \(option.placeholder)" : "--\(option.name)"
      if option.isRequired {
        parts.append(option.isRepeatable ? "\(text)..." : text)
      } else {
        parts.append(option.isRepeatable ? "[\(text)]..." : "[\(text)]")
      }
    }
    if let block {
      parts.append("[: block … end]".replacingOccurrences(of: "block", with: block.sections.map(\.name).joined(separator: "/")))
    }
    return parts.joined(separator: " ")
  }
}

/// A positional argument, or a keyword that separates two of them.
public struct Parameter: Sendable, Hashable {
  /// How the parameter takes words.
  public enum Role: Sendable, Hashable {
    /// Exactly one word (quote a name with spaces).
    case word
    /// The words up to the next keyword or the end, joined by single spaces: a name
    /// may be typed without quotes when it is the last argument.
    case rest
    /// Every remaining word, each a separate value.
    case words
    /// A literal word that must appear here: `to` in `rename OLD to NEW`.
    case keyword
    /// Everything after this point, options included, as one command line
    /// (`expect fails recipe add X --cuisine Y`).
    case tail
  }

  /// The name the action reads it by (`invocation.argument(name)`); a keyword's word.
  public let name: String
  /// How it takes words.
  public let role: Role
  /// What its value must look like.
  public let type: ValueType
  /// It may be left out.
  public let isOptional: Bool
  /// The numbers an `.integer` or `.number` argument may take (every one declares its range).
  public let range: ValueRange?
  /// What the REPL offers for it.
  public let completion: Completion
  /// One line for `help COMMAND`.
  public let help: String

  init(
    name: String, role: Role, type: ValueType, isOptional: Bool, range: ValueRange? = nil, completion: Completion, help: String
  ) {
    self.name = name
    self.role = role
    self.type = type
    self.isOptional = isOptional
    self.range = range
    self.completion = completion
    self.help = help
  }

  /// Exactly one word.
  public static func word(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, range: ValueRange? = nil, completion: Completion = .none,
    help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .word, type: type, isOptional: optional, range: range, completion: completion, help: help)
  }

  /// The words up to the next keyword or the end, joined by single spaces.
  public static func rest(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, completion: Completion = .none, help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .rest, type: type, isOptional: optional, completion: completion, help: help)
  }

  /// Every remaining word, each a separate value.
  public static func words(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, completion: Completion = .none, help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .words, type: type, isOptional: optional, completion: completion, help: help)
  }

  /// Everything after this point as one command line.
  public static func tail(_ name: String, help: String = "") -> Parameter {
    Parameter(name: name, role: .tail, type: .text, isOptional: false, completion: .commands, help: help)
  }

  /// The literal `word` (`to` in `rename OLD to NEW`).
  public static func keyword(_ word: String) -> Parameter {
    Parameter(name: word, role: .keyword, type: .text, isOptional: false, completion: .none, help: "")
  }

  /// How the argument appears in usage lines: `NAME`, `DATE`.
  public var placeholder: String { name.uppercased().replacingOccurrences(of: " ", with: "-") }
}

/// An option: `--flag`, or `--name VALUE` / `--name=VALUE`.
///
/// A required option (`list add-plan --week`) and a value out of its declared range
/// (`sync wait --timeout 0`) are usage errors, found when the script is parsed.
public struct OptionSpec: Sendable, Hashable {
  /// The name without dashes: "page".
  public let name: String
  /// `--name VALUE`, not a flag.
  public let takesValue: Bool
  /// It may be given more than once.
  public let isRepeatable: Bool
  /// The command cannot run without it.
  public let isRequired: Bool
  /// What its value must look like.
  public let type: ValueType
  /// The numbers an `.integer` or `.number` value may take (every one declares its range).
  public let range: ValueRange?
  /// What the REPL offers for its value.
  public let completion: Completion
  /// One line for `help COMMAND`.
  public let help: String
  /// The placeholder shown in usage: `--page N`.
  public let placeholder: String

  /// `--name`, without a value.
  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(
      name: name, takesValue: false, isRepeatable: false, isRequired: false, type: .text, range: nil, completion: .none, help: help,
      placeholder: "")
  }

  /// `--name VALUE`.
  public static func value(
    _ name: String, _ help: String, _ type: ValueType = .text, placeholder: String? = nil, repeatable: Bool = false,
    required: Bool = false, range: ValueRange? = nil, completion: Completion = .none
  ) -> OptionSpec {
    OptionSpec(
      name: name, takesValue: true, isRepeatable: repeatable, isRequired: required, type: type, range: range, completion: completion,
      help: help, placeholder: placeholder ?? type.placeholder
    )
  }
}

/// What a value must look like; checked when the command is parsed, so `--dry-run`
/// finds a bad date before anything runs.
///
/// The language knows the plain types; a language built on it adds its own as
/// ``ValueFormat``s (a date, a meal type), written `.custom(format)` or through a static
/// member of its own: `extension ValueType { static let date = ValueType.custom(…) }`.
public enum ValueType: Sendable, Hashable {
  /// Any text.
  case text
  /// A whole number.
  case integer
  /// A decimal number without sign or exponent: "1.5", "120".
  case number
  /// yes/no, true/false, on/off.
  case boolean
  /// One of a fixed set of words.
  case choice([String])
  /// A format the language built on this one declares.
  case custom(ValueFormat)

  var placeholder: String {
    switch self {
    case .text: "TEXT"
    case .integer: "N"
    case .number: "NUMBER"
    case .boolean: "yes|no"
    case .choice(let words): words.joined(separator: "|")
    case .custom(let format): format.placeholder
    }
  }
}

/// A kind of value the language does not know itself: its placeholder in usage lines and
/// the check that turns what was typed into the canonical spelling or says why it is not
/// one. Two formats are the same when their names are.
public struct ValueFormat: Sendable, Hashable {
  /// Names the format; equal names are the same format.
  public let name: String
  /// How usage lines show a value of it: "DATE".
  public let placeholder: String
  let check: @Sendable (String) -> Result<String, ValueProblem>

  /// A format whose `check` returns the canonical spelling of a value, or why it is not one.
  public init(_ name: String, placeholder: String, check: @escaping @Sendable (String) -> Result<String, ValueProblem>) {
    self.name = name
    self.placeholder = placeholder
    self.check = check
  }

  /// Formats are equal by name.
  public static func == (lhs: ValueFormat, rhs: ValueFormat) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// What the REPL offers when completing a value.
public enum Completion: Sendable, Hashable {
  /// Nothing.
  case none
  /// A fixed list of words.
  case words([String])
  /// Command names (for `help`).
  case commands
  /// Names the context lists for this source (the records of a kind, the devices):
  /// `CommandContext.completions(from:startingWith:)`.
  case source(String)
}

/// The block a command accepts: after a command line ending in `:`, raw lines until
/// `end`, each added as one value of an option. A line `steps:` switches section.
///
/// ```
/// recipe add "Egg Fried Rice" --cuisine Asian:
///   3 cups cooked rice
///   2 eggs
/// steps:
///   Scramble the eggs, add the rice.
/// end
/// ```
public struct BlockSpec: Sendable, Hashable {
  /// One part of the block, started by a `NAME:` line.
  public struct Section: Sendable, Hashable {
    /// The header word: "ingredients".
    public let name: String
    /// The option each line becomes: "ingredient".
    public let option: String
    /// The option a line ending in ':' becomes instead ("For the sauce:" → `--group`),
    /// or nil when such a line is an ordinary line of the section.
    public let headingOption: String?
    /// A section whose lines become `--option` values.
    public init(_ name: String, option: String, headingOption: String? = nil) {
      self.name = name
      self.option = option
      self.headingOption = headingOption
    }
  }

  /// The first section is the one lines go to before any header.
  public let sections: [Section]
  /// A block with these sections.
  public init(sections: [Section]) { self.sections = sections }
}

/// The commands of one topic, declared together in one file.
public struct CommandGroup<Context>: Sendable {
  /// The group's word: "recipe".
  public let name: String
  /// Its heading in `help`.
  public let summary: String
  /// Its commands, in the order `help` lists them.
  public let commands: [CommandSpec<Context>]
  /// A group of `commands` under `summary`.
  public init(_ name: String, summary: String, commands: [CommandSpec<Context>]) {
    self.name = name
    self.summary = summary
    self.commands = commands
  }
}
