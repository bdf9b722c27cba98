import CommandLanguage
import Foundation
import Model
import Repositories

/// explain key, week, line: why two names are one record.
enum ExplainCommands {
  static let keyKinds: [EntityKind] = [.category, .tag, .ingredientTemplate, .book, .recipe]

  static let key = CommandSpec(
    "explain key", summary: "The semantic key a name gets for each kind, and which record in the store has it.",
    parameters: [.rest("name", .name, help: "any name; for --as meal, \"DATE MEAL\"")],
    options: [.value("as", "only this kind", .kind, completion: .words(KitchenValues.kindWords))],
    details: ["Names with the same key are the same category, tag, ingredient or book; recipes with the same key are reported as similar."],
    examples: ["explain key Tomatoes", "explain key \"Mom's Lasagna\" --as recipe"]
  ) { invocation, session in
    let name = invocation.argument("name")
    let kinds = invocation.option("as").flatMap(EntityKind.init(rawValue:)).map { [$0] } ?? keyKinds
    var rows: [[JSONValue]] = []
    for kind in kinds {
      guard let key = try Identity.key(for: name, as: kind) else {
        throw invocation.failure("\(Rows.plural(kind)) have no semantic key", argument: "--as")
      }
      let existing: String
      do {
        existing = try Lookup.find(kind, name, in: session.library, invocation: invocation).map(Lookup.displayName) ?? ""
      } catch let error as RepositoryError {
        guard case .ambiguous(_, _, let ids) = error else { throw error }
        existing = "\(ids.count) records"
      }
      rows.append([.string(kind.label), .string(key), .string(policy(kind)), existing.isEmpty ? .null : .string(existing)])
    }
    return CommandResult(
      .table(
        Table(
          key: "keys", columns: [Table.Column("kind"), Table.Column("key"), Table.Column("rule"), Table.Column("existing", "IN STORE")],
          rows: rows, emptyText: "")))
  }

  static func policy(_ kind: EntityKind) -> String {
    switch kind.schema.identity {
    case .getOrCreate: "one per key"
    case .onePerSlot: "one per slot"
    case .detect: "similar ones reported"
    case .ownedByParent: "owned by its parent"
    case .duplicatesAllowed: "duplicates allowed"
    }
  }

  static let week = CommandSpec(
    "explain week", summary: "The ISO 8601 week of a date (2024-12-30 is in 2025-W01), with its Monday and Sunday.",
    parameters: [.word("date", .week, help: "YYYY-MM-DD, or a week YYYY-Www to normalize")],
    examples: ["explain week 2024-12-30"]
  ) { invocation, session in
    let input = invocation.argument("date")
    let span = try Identity.weekSpan(of: input)
    return CommandResult(
      .message("\(input) is in week \(span.week), Monday \(span.monday) to Sunday \(span.sunday)"),
      .data(
        key: "week",
        [
          "input": .string(input), "week": .string(span.week),
          "monday": .string(span.monday.description), "sunday": .string(span.sunday.description),
        ]))
  }

  static let line = CommandSpec(
    "explain line", summary: "How an ingredient line is read: quantity, unit, name, notes, and the ingredient it resolves to.",
    parameters: [.rest("line", help: "the line as you would write it in a recipe")],
    examples: ["explain line 2 ½ cups diced tomatoes (about 3)"]
  ) { invocation, session in
    let text = invocation.argument("line")
    let parsed = Identity.parse(ingredientLine: text)
    let existing = parsed.canonicalName.isEmpty ? nil : try session.library.ingredients.find(parsed.canonicalName)
    return CommandResult(
      .fields(
        key: "line",
        [
          .init("line", .string(text)), .init("quantity", .number(parsed.quantity)),
          .init("quantityUpperBound", label: "up to", .number(parsed.quantityUpperBound)), .init("unit", .text(parsed.unit)),
          .init("name", .string(parsed.name)), .init("canonicalName", label: "key", .string(parsed.canonicalName)),
          .init("notes", .text(parsed.notes)), .init("ingredient", label: "in store", .text(existing?.displayName)),
        ]))
  }
}
