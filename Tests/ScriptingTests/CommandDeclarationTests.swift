import Foundation
import Model
import Repositories
import Scripting
import Testing

@testable import CommandLanguage

/// Every registered command's declarations are what the parser holds scripts to: a
/// required option left out and a number outside its declared range are usage errors,
/// found before anything runs (and by `--dry-run`), for every command.
@Suite struct CommandDeclarationTests {
  static let registry = CommandRegistry<Session>.standard
  let parser = ScriptParser<Session>(registry: registry)

  /// A value of `type` that the parser takes, inside `range` when there is one.
  static func sample(_ type: ValueType, _ range: ValueRange?) -> String {
    if let range { return number(range.includesLower ? range.lower : min(range.lower + 1, range.upper), type) }
    switch type {
    case .text: return "X"
    case .integer, .number: return "1"
    case .boolean: return "yes"
    case .choice(let words): return words[0]
    // A format without a sample here gives a value the parser refuses, and the test fails.
    case .custom(let format): return formatSamples[format.name] ?? "no sample for \(format.name)"
    }
  }

  /// A value each of the kitchen's value formats takes.
  static let formatSamples = [
    "name": "X", "comparison": "1", "date": "2024-12-13", "meal type": "dinner", "week": "2024-W50", "kind": "recipe",
    "wait condition": "caught-up",
  ]

  static func number(_ value: Double, _ type: ValueType) -> String {
    type == .integer || value == value.rounded() ? String(Int64(value)) : String(value)
  }

  /// The command with every positional argument and required option given a valid value,
  /// leaving out the option named `without`, and adding `extra` options. `members` are the
  /// names of ``OneOf`` groups to give (by default the first of each required group).
  static func line(_ spec: CommandSpec<Session>, without: String? = nil, extra: [String] = [], members: [String]? = nil) -> String {
    let members = members ?? spec.oneOf.filter(\.isRequired).map { $0.names[0] }
    var words = [spec.name]
    for parameter in spec.parameters {
      switch parameter.role {
      case .keyword: words.append(parameter.name)
      case .tail: words.append("counts")
      case .word, .rest, .words:
        if !parameter.isOptional || members.contains(parameter.name) {
          words.append(Lexer.quote(sample(parameter.type, parameter.range)))
        }
      }
    }
    for option in spec.options where (option.isRequired && option.name != without) || members.contains("--" + option.name) {
      words.append("--\(option.name)")
      if option.takesValue { words.append(Lexer.quote(sample(option.type, option.range))) }
    }
    return (words + extra).joined(separator: " ")
  }

  /// Options and parameters that take numbers.
  static func numeric(_ type: ValueType) -> Bool { type == .integer || type == .number }

  @Test func everyNumberACommandTakesDeclaresItsRange() {
    for spec in Self.registry.commands {
      for option in spec.options where Self.numeric(option.type) {
        #expect(option.range != nil, "\(spec.name) --\(option.name) takes a number without a declared range")
      }
      for parameter in spec.parameters where Self.numeric(parameter.type) {
        #expect(parameter.range != nil, "\(spec.name) \(parameter.name) takes a number without a declared range")
      }
    }
  }

  @Test func everyCommandParsesWithItsRequiredArgumentsAndOptions() {
    for spec in Self.registry.commands {
      let parsed = parser.parse(Self.line(spec))
      #expect(parsed.errors.isEmpty, "\(Self.line(spec)): \(parsed.errors.map(\.description))")
      #expect(parsed.statements.first?.spec.name == spec.name)
    }
  }

  @Test func aRequiredOptionLeftOutIsAUsageErrorBeforeAnythingRuns() throws {
    var checked = 0
    for spec in Self.registry.commands {
      for option in spec.options where option.isRequired {
        let line = Self.line(spec, without: option.name)
        let error = parser.parse(line).errors.first
        #expect(error?.kind == .usage, "\(line)")
        #expect(error?.argument == "--\(option.name)", "\(line): \(String(describing: error))")
        #expect(error?.description.contains("missing; give --\(option.name)") == true, "\(line): \(String(describing: error))")
        #expect(spec.usage.contains(" --\(option.name) ") || spec.usage.hasSuffix(" --\(option.name) \(option.placeholder)"))
        #expect(!spec.usage.contains("[--\(option.name) "), "\(spec.usage) shows a required option as optional")
        checked += 1
      }
    }
    #expect(checked >= 4)
  }

  @Test func aNumberOutsideItsRangeIsAUsageErrorAndTheBoundsAreTaken() {
    var checked = 0
    for spec in Self.registry.commands {
      for option in spec.options {
        guard let range = option.range else { continue }
        let below = range.includesLower ? range.lower - 1 : range.lower
        for value in [below, range.upper + 1, -range.upper, range.upper * 1_000] {
          let text = Self.number(value, option.type)
          let line = Self.line(spec, extra: ["--\(option.name)", text])
          let error = parser.parse(line).errors.first
          #expect(error?.kind == .usage, "\(line)")
          #expect(error?.argument == "--\(option.name)", "\(line)")
          #expect(error?.description.contains("'\(text)' is out of range; give") == true, "\(line): \(String(describing: error))")
          checked += 1
        }
        for value in [range.upper, range.includesLower ? range.lower : (option.type == .integer ? range.lower + 1 : range.lower + 0.5)] {
          let line = Self.line(spec, extra: ["--\(option.name)", Self.number(value, option.type)])
          #expect(parser.parse(line).errors.isEmpty, "\(line): \(parser.parse(line).errors.map(\.description))")
        }
      }
      for parameter in spec.parameters {
        guard let range = parameter.range else { continue }
        // An optional parameter is given, so that its value is checked.
        let members = spec.oneOf.filter(\.isRequired).map { $0.names[0] } + [parameter.name]
        let line = Self.line(spec, members: members).replacingOccurrences(
          of: " " + Self.sample(parameter.type, range), with: " " + Self.number(range.upper + 1, parameter.type))
        #expect(parser.parse(line).errors.first?.argument == parameter.name, "\(line)")
        checked += 1
      }
    }
    #expect(checked >= 40)
  }

  @Test func argumentsThatExcludeEachOtherAreAUsageErrorBeforeAnythingRuns() {
    var checked = 0
    for spec in Self.registry.commands {
      for group in spec.oneOf {
        #expect(group.names.count >= 2, "\(spec.name)")
        for name in group.names {
          let declared =
            name.hasPrefix("--") ? spec.options.contains { "--" + $0.name == name } : spec.parameters.contains { $0.name == name }
          #expect(declared, "\(spec.name): \(name) is not one of its arguments or options")
        }
        let others = spec.oneOf.filter { $0.isRequired && $0 != group }.map { $0.names[0] }
        let both = Self.line(spec, members: Array(group.names.prefix(2)) + others)
        let error = parser.parse(both).errors.first
        #expect(error?.kind == .usage && error?.argument == group.names[1], "\(both): \(String(describing: error))")
        #expect(error?.description.contains("not both") == true, "\(both): \(String(describing: error))")
        if group.isRequired {
          let none = Self.line(spec, members: others)
          let missing = parser.parse(none).errors.first
          #expect(missing?.kind == .usage && missing?.argument == group.names[0], "\(none): \(String(describing: missing))")
          #expect(missing?.description.contains("missing; give") == true, "\(none)")
        }
        for name in group.names {
          let one = Self.line(spec, members: [name] + others)
          #expect(parser.parse(one).errors.isEmpty, "\(one): \(parser.parse(one).errors.map(\.description))")
        }
        checked += 1
      }
    }
    #expect(checked >= 8)
  }

  /// The reported cases, as a script: the first line would write, but nothing runs.
  @Test(arguments: [
    "list add-plan Groceries", "meal export", "sync wait", "sync wait --until caught-up --timeout 0",
    "sync wait --until \"nothing much\"", "category move Dairy", "sync status --events 101", "recipe show Soup --servings 0",
    "recipe show Soup --servings 2 --scale 2", "open --memory kitchen.sqlite", "list store Groceries", "recipe export",
  ])
  func theReportedCasesRunNothingAndDryRunFindsThem(_ line: String) throws {
    var diagnostics: [String] = []
    let report = ScriptRunner.check("category add Produce\n\(line)", scriptName: "s.forager", diagnostics: { diagnostics.append($0) })
    #expect(report.status == .usage)
    #expect(diagnostics.count == 1 && diagnostics[0].hasPrefix("s.forager:2: error: "), "\(diagnostics)")

    let session = try Session(location: "memory", now: { Harness.fixedNow })
    let runner = ScriptRunner(session: session, scriptName: "s.forager", output: { _ in }, diagnostics: { _ in })
    #expect(runner.run("category add Produce\n\(line)").status == .usage)
    #expect(try session.library.counts()[.category] ?? 0 == 0)
  }
}
