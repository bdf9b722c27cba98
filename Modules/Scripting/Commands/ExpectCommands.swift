import CommandLanguage
import Foundation
import Model
import Repositories

/// Assertions for scripts: a failing `expect` is its own error kind (the batch runner
/// exits 3).
enum ExpectCommands {
  static let kindParameter = Parameter.word(
    "kind", .kind, completion: .words(KitchenValues.kindWords), help: KitchenValues.kindWords.joined(separator: ", "))

  static let count = CommandSpec(
    "expect count", summary: "Check how many live records of a kind the current device holds.",
    parameters: [kindParameter, .words("expected", .comparison, help: "a number, or a comparison: = N, >= N, <= N, > N, < N, != N")],
    examples: ["expect count categories 7", "expect count recipes >= 8"]
  ) { invocation, session in
    let words = invocation.argumentList("expected")
    let comparison: String
    let numberText: String
    switch words.count {
    case 1: (comparison, numberText) = ("=", words[0])
    case 2: (comparison, numberText) = (words[0], words[1])
    default: throw invocation.failure("give a number or a comparison and a number, e.g. '>= 3'", argument: "expected")
    }
    guard let expected = Int(numberText) else {
      throw invocation.failure("'\(numberText)' is not a whole number", argument: "expected")
    }
    let tests: [String: (Int, Int) -> Bool] = ["=": (==), "==": (==), "!=": (!=), ">=": (>=), "<=": (<=), ">": (>), "<": (<)]
    guard let test = tests[comparison] else {
      throw invocation.failure("'\(comparison)' is not a comparison; use =, !=, >=, <=, > or <", argument: "expected")
    }
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    let actual = try session.library.counts()[kind] ?? 0
    guard test(actual, expected) else {
      throw invocation.expectationFailure(
        "expected \(comparison == "=" ? "" : comparison + " ")\(expected) \(Rows.plural(kind)), found \(actual)")
    }
    return CommandResult(.message("ok: \(Rows.count(actual, kind))"), .data(key: "actual", .int(actual)))
  }

  static let exists = CommandSpec(
    "expect exists", summary: "Check that a record with this name exists (any spelling with the same key).",
    parameters: [kindParameter, .rest("name", .name, help: "a name; for a meal, \"DATE MEAL\"")],
    examples: ["expect exists ingredient scallions", "expect exists meal 2024-12-13 dinner"]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    guard let record = try Lookup.find(kind, invocation.argument("name"), in: session.library, invocation: invocation) else {
      throw invocation.expectationFailure("expected \(kind.label) '\(invocation.argument("name"))' to exist, found none")
    }
    return CommandResult(
      .message("ok: \(kind.label) '\(Lookup.displayName(record))' exists"), .data(key: "id", .string(record.id.shortText)))
  }

  static let missing = CommandSpec(
    "expect missing", summary: "Check that no live record has this name.",
    parameters: [kindParameter, .rest("name", .name)],
    examples: ["expect missing recipe \"Caesar Salad\""]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    if let record = try Lookup.find(kind, invocation.argument("name"), in: session.library, invocation: invocation) {
      throw invocation.expectationFailure(
        "expected no \(kind.label) '\(invocation.argument("name"))', found '\(Lookup.displayName(record))' (id \(record.id.shortText))")
    }
    return CommandResult(.message("ok: no \(kind.label) '\(invocation.argument("name"))'"))
  }

  static let field = CommandSpec(
    "expect field", summary: "Check one field of a named record; references compare by name, lists as \"a, b\".",
    parameters: [
      kindParameter, .word("name", .name, help: "the record's name (quote it if it has spaces)"),
      .word("field", help: "a field: name, key, cuisine, category, page, week, … or a schema field name"),
      .rest("value", help: "the expected value as shown; \"\" for none"),
    ],
    examples: ["expect field recipe \"Egg Fried Rice\" cuisine Asian", "expect field ingredient scallion name spring onion"]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    let name = invocation.argument("name")
    guard let descriptor = Lookup.field(invocation.argument("field"), of: kind) else {
      let known = kind.schema.fields.map(\.name).joined(separator: ", ")
      throw invocation.failure("\(kind.label)s have no field '\(invocation.argument("field"))'; fields: \(known)", argument: "field")
    }
    guard let record = try Lookup.find(kind, name, in: session.library, invocation: invocation) else {
      throw invocation.expectationFailure("expected \(kind.label) '\(name)' to exist, found none")
    }
    let actual = Lookup.text(record[descriptor.name], descriptor, in: session.library)
    let expected = invocation.argument("value")
    guard actual == expected else {
      throw invocation.expectationFailure("expected \(kind.label) '\(name)' \(descriptor.name) to be '\(expected)', found '\(actual)'")
    }
    return CommandResult(.message("ok: \(kind.label) '\(name)' \(descriptor.name) is '\(actual)'"), .data(key: "actual", .string(actual)))
  }

  static let duplicates = CommandSpec(
    "expect duplicates", summary: "Check how many groups of records share a semantic key (0: no duplicates at all).",
    parameters: [.word("count", .integer, range: .from(0, to: 1_000_000), help: "the number of duplicate groups")],
    examples: ["expect duplicates 0"]
  ) { invocation, session in
    let groups = try session.library.duplicates()
    let expected = Int(invocation.argument("count")) ?? 0
    guard groups.count == expected else {
      let list = groups.map { "\($0.kind.label) '\($0.key)' ×\($0.members.count)" }.joined(separator: ", ")
      throw invocation.expectationFailure(
        "expected \(expected) duplicate group\(expected == 1 ? "" : "s"), found \(groups.count)\(list.isEmpty ? "" : ": " + list)")
    }
    return CommandResult(.message("ok: \(groups.count) duplicate group\(groups.count == 1 ? "" : "s")"))
  }

  static let fails = CommandSpec(
    "expect fails", summary: "Run a command and check that it fails (and so changes nothing).",
    parameters: [.tail("command", help: "the command, written as usual")],
    examples: ["expect fails category rename Produce to Dairy", "expect fails meal plan 2024-12-13 dinner \"No Such Recipe\""]
  ) { invocation, session in
    let parsed = ScriptParser(registry: session.registry).parse(invocation.argument("command"))
    if let error = parsed.errors.first {
      // A known command whose arguments are refused as it is read (a number out of its
      // range, a required option missing) fails before it runs: that is a failure too.
      guard error.kind == .usage, let name = error.command, session.registry.command(named: name) != nil else {
        throw invocation.failure("the command to try is not valid: \(error.description)", argument: "command")
      }
      return CommandResult(.message("ok: failed as expected: \(error.description)"), .data(key: "error", .string(error.description)))
    }
    guard let inner = parsed.statements.first, parsed.statements.count == 1 else {
      throw invocation.failure("give exactly one command", argument: "command")
    }
    // The command runs in a transaction that is always rolled back: expect fails
    // changes nothing, whether the command fails or not.
    let device = session.current
    let original = device.library
    var failure: ScriptError?
    do {
      try original.transaction { bound in
        device.library = bound
        defer { device.library = original }
        do {
          _ = try Interpreter<Session>.perform(inner, in: session)
        } catch let error as ScriptError {
          failure = error
        }
        throw RollBack()
      }
    } catch is RollBack {}
    guard let failure else {
      throw invocation.expectationFailure("expected '\(invocation.argument("command"))' to fail, but it succeeded")
    }
    guard failure.kind == .failed else { throw failure }
    return CommandResult(.message("ok: failed as expected: \(failure.description)"), .data(key: "error", .string(failure.description)))
  }
}

/// Thrown to undo the transaction `expect fails` runs its command in.
private struct RollBack: Error {}
