import Foundation
public import Model

/// What a command accepts and does: the single description from which the parser
/// binds arguments, `help` prints usage, the REPL completes words, and the interpreter
/// runs it.
///
/// A command group (all `recipe …` commands, say) is one file that declares a
/// ``CommandGroup``; ``CommandRegistry/standard`` lists the groups.
///
/// ```swift
/// CommandSpec(
///   "tag add", summary: "Create a tag (or find the one with that name).",
///   parameters: [.rest("name", .name, completion: .names(.tag))],
///   options: [.value("color", "a colour name or hex value")],
///   examples: ["tag add weeknight --color green"]
/// ) { invocation, session in … }
/// ```
public struct CommandSpec: Sendable {
  /// The words that select the command: "recipe add", "help".
  public let name: String
  public let summary: String
  public let parameters: [Parameter]
  public let options: [OptionSpec]
  /// The indented block the command accepts after a line ending in `:`, if any.
  public let block: BlockSpec?
  /// Arguments and options that exclude each other (`--servings` or `--scale`).
  public let oneOf: [OneOf]
  /// Longer notes shown by `help COMMAND`.
  public let details: [String]
  public let examples: [String]
  let action: @Sendable (Invocation, Session) throws -> CommandResult

  public init(
    _ name: String, summary: String, parameters: [Parameter] = [], options: [OptionSpec] = [],
    block: BlockSpec? = nil, oneOf: [OneOf] = [], details: [String] = [], examples: [String],
    action: @escaping @Sendable (Invocation, Session) throws -> CommandResult
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
  }

  /// The command words: ["recipe", "add"].
  public var words: [String] { name.split(separator: " ").map(String.init) }

  /// The options every command takes besides its own.
  public static let globalOptions: [OptionSpec] = [
    .flag("json", "print this command's result as JSON"),
    .flag("help", "show this help instead of running the command"),
  ]

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

  public let name: String
  public let role: Role
  public let type: ValueType
  public let isOptional: Bool
  /// The numbers an `.integer` or `.number` argument may take (every one declares its range).
  public let range: ValueRange?
  public let completion: Completion
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

  public static func word(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, range: ValueRange? = nil, completion: Completion = .none,
    help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .word, type: type, isOptional: optional, range: range, completion: completion, help: help)
  }

  public static func rest(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, completion: Completion = .none, help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .rest, type: type, isOptional: optional, completion: completion, help: help)
  }

  public static func words(
    _ name: String, _ type: ValueType = .text, optional: Bool = false, completion: Completion = .none, help: String = ""
  ) -> Parameter {
    Parameter(name: name, role: .words, type: type, isOptional: optional, completion: completion, help: help)
  }

  public static func tail(_ name: String, help: String = "") -> Parameter {
    Parameter(name: name, role: .tail, type: .text, isOptional: false, completion: .commands, help: help)
  }

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
  public let name: String
  public let takesValue: Bool
  public let isRepeatable: Bool
  /// The command cannot run without it.
  public let isRequired: Bool
  public let type: ValueType
  /// The numbers an `.integer` or `.number` value may take (every one declares its range).
  public let range: ValueRange?
  public let completion: Completion
  public let help: String
  /// The placeholder shown in usage: `--page N`.
  public let placeholder: String

  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(
      name: name, takesValue: false, isRepeatable: false, isRequired: false, type: .text, range: nil, completion: .none, help: help,
      placeholder: "")
  }

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
public enum ValueType: Sendable, Hashable {
  case text
  /// A name: not empty, no control characters.
  case name
  /// A whole number.
  case integer
  /// A decimal number without sign or exponent: "1.5", "120".
  case number
  /// A calendar date "YYYY-MM-DD".
  case date
  /// breakfast, lunch, dinner or snack.
  case mealType
  /// An ISO week "YYYY-Www" or a date in it.
  case week
  /// A kind of record: category, tag, ingredient, book, recipe, meal, plan, list, item.
  case kind
  /// yes/no, true/false, on/off.
  case boolean
  /// One of a fixed set of words.
  case choice([String])
  /// `expect count`'s expectation, word by word: a whole number from 0, or a comparison
  /// (=, >=, <=, >, <, !=).
  case comparison
  /// What `sync wait --until` waits for: caught-up, "item NAME on LIST" or
  /// "item NAME checked on LIST".
  case waitCondition

  var placeholder: String {
    switch self {
    case .text: "TEXT"
    case .name: "NAME"
    case .integer: "N"
    case .number: "NUMBER"
    case .date: "DATE"
    case .mealType: "MEAL"
    case .week: "WEEK"
    case .kind: "KIND"
    case .boolean: "yes|no"
    case .choice(let words): words.joined(separator: "|")
    case .comparison: "[OP] N"
    case .waitCondition: "CONDITION"
    }
  }
}

/// What the REPL offers when completing a value.
public enum Completion: Sendable, Hashable {
  case none
  /// Names of live records of this kind in the current store.
  case names(EntityKind)
  /// A fixed list of words.
  case words([String])
  /// Command names (for `help`).
  case commands
  /// Device names in the session.
  case devices
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
  public struct Section: Sendable, Hashable {
    /// The header word: "ingredients".
    public let name: String
    /// The option each line becomes: "ingredient".
    public let option: String
    /// The option a line ending in ':' becomes instead ("For the sauce:" → `--group`),
    /// or nil when such a line is an ordinary line of the section.
    public let headingOption: String?
    public init(_ name: String, option: String, headingOption: String? = nil) {
      self.name = name
      self.option = option
      self.headingOption = headingOption
    }
  }

  /// The first section is the one lines go to before any header.
  public let sections: [Section]
  public init(sections: [Section]) { self.sections = sections }
}

/// The commands of one topic, declared together in one file.
public struct CommandGroup: Sendable {
  public let name: String
  public let summary: String
  public let commands: [CommandSpec]
  public init(_ name: String, summary: String, commands: [CommandSpec]) {
    self.name = name
    self.summary = summary
    self.commands = commands
  }
}
