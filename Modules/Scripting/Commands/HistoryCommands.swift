import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// history, settings history, trash, trash restore: who changed a record and when, and the
/// deleted records a user can bring back.
enum HistoryCommands {
  static let group = CommandGroup(
    "history", summary: "History of records and recently deleted ones", commands: [history, trash, restore])

  static let kindParameter = Parameter.word(
    "kind", .kind, completion: .words(KitchenValues.kindWords), help: KitchenValues.kindWords.joined(separator: ", "))

  static let history = CommandSpec(
    "history",
    summary:
      "A record's field changes over time, oldest first: when, which device, the field, old → new. Kept per record and in all up to the bounds of `settings history`.",
    parameters: [kindParameter, .rest("name", .name, help: "a name (a deleted record's too); for a meal, \"DATE MEAL\"")],
    examples: ["history recipe \"Tomato Pasta\"", "history category produce"]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    let name = invocation.argument("name")
    let record = try find(kind, name, in: session, invocation: invocation, includeDeleted: true)
    let changes = try RecordHistory.changes(of: kind, id: record.id, in: session.current.store)
    let names = try deviceNames(session)
    let rows: [[JSONValue]] = changes.map { change in
      [
        Rows.timestamp(change.time), .string(deviceName(change.replica, names)), .string(change.field),
        .string(text(change.old)), .string(text(change.new)),
      ]
    }
    return CommandResult(
      .message("\(kind.label) '\(Lookup.displayName(record))': \(changes.count) change\(changes.count == 1 ? "" : "s") kept"),
      .table(
        Table(
          key: "changes",
          columns: [
            Table.Column("time", "WHEN"), Table.Column("device", "DEVICE"), Table.Column("field", "FIELD"), Table.Column("old", "OLD"),
            Table.Column("new", "NEW"),
          ],
          rows: rows, emptyText: "no changes kept (a record's creation is its first state, not a change)")))
  }

  static let bounds = CommandSpec(
    "settings history",
    summary:
      "How many history entries the current device keeps per record and in all (the oldest go first); with options, set them.",
    options: [
      .value(
        "per-record", "entries kept per record", .integer,
        range: .from(Double(HistoryBounds.perRecordRange.lowerBound), to: Double(HistoryBounds.perRecordRange.upperBound))),
      .value(
        "total", "entries kept in all", .integer,
        range: .from(Double(HistoryBounds.totalRange.lowerBound), to: Double(HistoryBounds.totalRange.upperBound))),
    ],
    examples: ["settings history", "settings history --per-record 20 --total 10000"]
  ) { invocation, session in
    let store = session.current.store
    var current = try HistoryBounds.current(in: store)
    if invocation.option("per-record") != nil || invocation.option("total") != nil {
      do {
        current = try HistoryBounds(
          perRecord: invocation.integer("per-record") ?? current.perRecord, total: invocation.integer("total") ?? current.total)
      } catch let error as HistoryError {
        throw invocation.failure(error.description)
      }
      try current.save(in: store)
    }
    return CommandResult(
      .message("history keeps \(current)"),
      .data(key: "bounds", .object([.init("perRecord", .int(current.perRecord)), .init("total", .int(current.total))])))
  }

  static let trash = CommandSpec(
    "trash", summary: "The current device's deleted records, newest first: kind, name, when, and by which device.",
    examples: ["trash"]
  ) { _, session in
    let names = try deviceNames(session)
    let rows: [[JSONValue]] = try RecordHistory.trash(in: session.current.store).map { item in
      [
        .string(item.record.kind.label), .string(name(of: item.record)), Rows.timestamp(item.time),
        .string(item.replica.map { deviceName($0, names) } ?? "\(session.current.name) (not synced yet)"), Rows.id(item.record.id),
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
    parameters: [kindParameter, .rest("name", .name, help: "the deleted record's name or id; for a meal, \"DATE MEAL\"")],
    examples: ["trash restore recipe \"Tomato Pasta\"", "trash restore category Produce"]
  ) { invocation, session in
    let kind = EntityKind(rawValue: invocation.argument("kind")) ?? .category
    let record = try findDeleted(kind, invocation.argument("name"), in: session, invocation: invocation)
    let outcome: RestoreOutcome
    do {
      outcome = try RecordHistory.restore(kind, id: record.id, with: session.library)
    } catch let error as RepositoryError {
      throw invocation.failure(error.description, argument: "name")
    }
    var parts: [CommandResult.Part] = [.message("restored \(kind.label) '\(name(of: outcome.record))'")]
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

  // MARK: Helpers

  /// The record of `kind` named `name`: the live one, else (when asked) a deleted one.
  static func find(_ kind: EntityKind, _ name: String, in session: Session, invocation: Invocation, includeDeleted: Bool) throws
    -> Model.Record
  {
    if let live = try Lookup.find(kind, name, in: session.library, invocation: invocation) { return live }
    guard includeDeleted else { throw invocation.failure("no \(kind.label) named '\(name)'", argument: "name") }
    return try findDeleted(kind, name, in: session, invocation: invocation)
  }

  /// The deleted record of `kind` with this name, key or id among the restorable ones.
  static func findDeleted(_ kind: EntityKind, _ name: String, in session: Session, invocation: Invocation) throws -> Model.Record {
    let wanted = name.lowercased()
    let slot = wanted.split(whereSeparator: { $0 == " " || $0 == "/" }).joined(separator: "-")
    let matches = try session.library.deletedRecords().filter { record in
      guard record.kind == kind else { return false }
      let key = record.semanticKey?.lowercased()
      return Lookup.displayName(record).lowercased() == wanted || key == wanted || key == slot
        || record.id.lowercaseText == wanted || record.id.shortText.lowercased() == wanted
    }
    guard let first = matches.first else { throw invocation.failure("no deleted \(kind.label) named '\(name)'", argument: "name") }
    guard matches.count == 1 else {
      throw invocation.failure(
        "\(matches.count) deleted \(kind.label)s are named '\(name)'; use an id: \(matches.map(\.id.shortText).joined(separator: ", "))",
        argument: "name")
    }
    return first
  }

  /// A record's name as the trash shows it: a meal by its slot.
  static func name(of record: Model.Record) -> String {
    record.kind == .plannedMeal ? record.semanticKey ?? Lookup.displayName(record) : Lookup.displayName(record)
  }

  /// The names of the devices this session knows by replica id: its own devices, and those
  /// the cloud registered.
  static func deviceNames(_ session: Session) throws -> [String: String] {
    var names: [String: String] = [:]
    if let cloud = session.cloud(for: session.current), let registered = try? cloud.devices() {
      for device in registered { names[device.replicaID] = device.name }
    }
    for device in session.devices {
      if let replica = try RecordHistory.replicaID(of: device.store) { names[replica] = device.name }
    }
    return names
  }

  static func deviceName(_ replica: String, _ names: [String: String]) -> String {
    if replica.isEmpty { return "migration" }
    return names[replica] ?? "device \(replica.prefix(8))"
  }

  static func text(_ value: FieldValue?) -> String {
    guard let value, value != .null else { return "—" }
    return value.displayText
  }
}
