import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// history: who changed a record and when; the lookups `trash` (``TrashCommands``) shares.
enum HistoryCommands {
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
