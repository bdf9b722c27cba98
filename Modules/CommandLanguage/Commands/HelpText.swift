import Foundation

/// The help the language gives about itself, built from the command specs: what a
/// `help` command returns.
public enum HelpText {
  /// `help COMMAND`: summary, usage, arguments, options, notes, examples.
  public static func result<Context>(for spec: CommandSpec<Context>) -> CommandResult {
    var lines = [spec.summary, "", "usage: \(spec.usage)"]
    let described = spec.parameters.filter { !$0.help.isEmpty }
    if !described.isEmpty {
      lines.append("")
      lines.append("arguments:")
      let width = described.map(\.placeholder.count).max() ?? 0
      for parameter in described {
        let range = parameter.range.map { " (\($0))" } ?? ""
        lines.append("  " + pad(parameter.placeholder, width) + "  " + parameter.help + range)
      }
    }
    if !spec.options.isEmpty {
      lines.append("")
      lines.append("options:")
      let labels = spec.options.map { $0.takesValue ? "--\($0.name) \($0.placeholder)" : "--\($0.name)" }
      let width = labels.map(\.count).max() ?? 0
      for (label, option) in zip(labels, spec.options) {
        lines.append("  " + pad(label, width) + "  " + option.help + notes(option))
      }
    }
    for group in spec.oneOf {
      lines.append(group.isRequired ? "give one of \(group.text(spec))" : "give at most one of \(group.text(spec))")
    }
    if let block = spec.block {
      lines.append("")
      let names = block.sections.map { "\($0.name): (each line a --\($0.option))" }.joined(separator: ", ")
      lines.append("block: end the line with ':' and give raw lines until 'end'; sections \(names)")
    }
    if !spec.details.isEmpty {
      lines.append("")
      lines += spec.details
    }
    lines.append("")
    lines.append(spec.examples.count > 1 ? "examples:" : "example:")
    lines += spec.examples.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
    let json: JSONValue = [
      "name": .string(spec.name), "summary": .string(spec.summary), "usage": .string(spec.usage),
      "options": .array(
        spec.options.map {
          [
            "name": .string("--" + $0.name), "help": .string($0.help), "takesValue": .bool($0.takesValue), "required": .bool($0.isRequired),
            "range": $0.range.map { JSONValue.string($0.description) } ?? .null,
          ]
        }),
      "examples": .strings(spec.examples),
    ]
    return CommandResult(.message(lines.joined(separator: "\n")), .data(key: "help", json))
  }

  /// `help`: the registry's introduction, then every command with its summary, by group.
  public static func overview<Context>(_ registry: CommandRegistry<Context>) -> CommandResult {
    var lines = registry.introduction
    let width = registry.commands.map(\.name.count).max() ?? 0
    for group in registry.groups where !group.commands.isEmpty {
      lines.append("")
      lines.append(group.summary)
      for command in group.commands {
        lines.append("  " + pad(command.name, width) + "  " + command.summary)
      }
    }
    let json = JSONValue.array(
      registry.commands.map { ["name": .string($0.name), "summary": .string($0.summary), "usage": .string($0.usage)] })
    return CommandResult(.message(lines.joined(separator: "\n")), .data(key: "commands", json))
  }

  /// `help recipe`: the commands of one group word.
  public static func group<Context>(_ word: String, _ commands: [CommandSpec<Context>]) -> CommandResult {
    let width = commands.map(\.name.count).max() ?? 0
    var lines = ["'\(word)' commands ('help \(word) VERB' for details):"]
    for command in commands { lines.append("  " + pad(command.name, width) + "  " + command.summary) }
    let json = JSONValue.array(commands.map { ["name": .string($0.name), "summary": .string($0.summary), "usage": .string($0.usage)] })
    return CommandResult(.message(lines.joined(separator: "\n")), .data(key: "commands", json))
  }

  /// " (required; above 0 and at most 3,600)": what an option's help line adds.
  static func notes(_ option: OptionSpec) -> String {
    let notes = [option.isRequired ? "required" : nil, option.isRepeatable ? "repeatable" : nil, option.range?.description]
      .compactMap { $0 }
    return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
