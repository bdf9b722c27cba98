import CommandLanguage
import Model
import Repositories
import Sync

/// trash, trash restore: the deleted records of the current device, and bringing one back
/// with what was deleted with it.
enum TrashCommands {
  static let trash = CommandSpec(
    "trash", summary: "The current device's deleted records, newest first: kind, name, when, and by which device.",
    examples: ["trash"]
  ) { _, session in
    let names = try HistoryCommands.deviceNames(session)
    let rows: [[JSONValue]] = try RecordHistory.trash(in: session.current.store).map { item in
      [
        .string(item.record.kind.label), .string(HistoryCommands.name(of: item.record)), Rows.timestamp(item.time),
        .string(item.replica.map { HistoryCommands.deviceName($0, names) } ?? "\(session.current.name) (not synced yet)"),
        Rows.id(item.record.id),
      ]
    }
    return CommandResult(
      .table(
        Table(
          key: "deleted",
          columns: [
            Table.Column("kind", "KIND"), Table.Column("name", "NAME"), Table.Column("time", "DELETED"), Table.Column("device", "BY"),
            Table.Column("id", "ID"),
          ],
          rows: rows, emptyText: "nothing deleted")))
  }

  static let restore = CommandSpec(
    "trash restore",
    summary:
      "Bring a deleted record back, with what was deleted with it (a recipe's lines, the meals planned with it), as new changes that sync and win over the delete. A name a live record holds now stays with that record.",
    parameters: [HistoryCommands.kindParameter, .rest("name", .name, help: "the deleted record's name or id; for a meal, \"DATE MEAL\"")],
    examples: ["trash restore recipe \"Tomato Pasta\"", "trash restore category Produce"]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    let record = try HistoryCommands.findDeleted(kind, invocation.argument("name"), in: session, invocation: invocation)
    let outcome: RestoreOutcome
    do {
      outcome = try RecordHistory.restore(kind, id: record.id, with: session.library)
    } catch let error as RepositoryError {
      throw invocation.failure(error.description, argument: "name")
    }
    var parts: [CommandResult.Part] = [.message("restored \(kind.label) '\(HistoryCommands.name(of: outcome.record))'")]
    let counts = Dictionary(grouping: outcome.related, by: \.kind).sorted { $0.key.rawValue < $1.key.rawValue }
    if !counts.isEmpty {
      parts.append(.message("with " + counts.map { Rows.count($0.value.count, $0.key) }.joined(separator: ", ")))
    }
    for reason in outcome.keptDeleted { parts.append(.message("kept deleted: \(reason)")) }
    parts.append(
      .data(
        key: "restored",
        .object([
          .init("kind", .string(kind.label)), .init("id", Rows.id(outcome.record.id)), .init("related", .int(outcome.related.count)),
          .init("keptDeleted", .array(outcome.keptDeleted.map { .string($0) })),
        ])))
    return CommandResult(parts: parts)
  }
}
