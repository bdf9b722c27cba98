import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories

/// `undo --file F`: writes back what a batch script changed, from the undo file
/// `forager-batch --undo-file F` wrote (``UndoFile``).
enum UndoFileCommand {
  /// Checks the file and the records it names on the session's devices, then reverts them
  /// all in one transaction per device store, nested so that nothing applies unless all do.
  static func apply(_ path: String, invocation: Invocation, session: Session) throws -> CommandResult {
    let document: UndoFile.Document
    do { document = try UndoFile.read(path) } catch { throw invocation.failure(error.description) }
    var plans: [(device: Device, reverts: [RecordRevert])] = []
    var overridden: [String] = []
    for part in document.devices where !part.records.isEmpty {
      guard let device = session.device(named: part.device) else {
        throw invocation.failure(
          "undo file '\(path)' names device '\(part.device)', which this session does not have (device add \(part.device) --store PATH)")
      }
      var reverts: [RecordRevert] = []
      try device.store.read { reader in
        for entry in part.records {
          guard let kind = EntityKind(rawValue: entry.kind) else { continue }
          guard let now = try reader.record(kind, id: entry.id) else {
            throw invocation.failure(
              "undo file '\(path)' names \(kind.label) \(entry.id.lowercaseText), which device '\(device.name)' does not hold: it was written for another store; nothing was undone"
            )
          }
          if UndoFile.Shown(now) != entry.after { overridden.append("\(kind.label) '\(Lookup.displayName(now))'") }
          reverts.append(
            entry.before.live
              ? RecordRevert(kind: kind, id: entry.id, fields: entry.before.fields, liveness: .live)
              : RecordRevert(kind: kind, id: entry.id, fields: [:], liveness: .deleted))
        }
      }
      plans.append((device, reverts))
    }
    let laterChanged = Array(Set(overridden)).sorted()
    if !laterChanged.isEmpty && !invocation.flag("force") {
      throw invocation.failure(
        "a later change rewrote \(laterChanged.joined(separator: ", ")); undo --file --force overrides it, nothing was undone")
    }
    let written = try revert(plans[...])
    let script = document.script.isEmpty ? "the script" : "'\(document.script)'"
    var parts: [CommandResult.Part] = [
      .message(
        "undid \(script) (\(document.commands.count) command\(document.commands.count == 1 ? "" : "s")) from '\(path)': \(written) record\(written == 1 ? "" : "s") written"
      )
    ]
    if !laterChanged.isEmpty { parts.append(.message("overrode later changes to \(laterChanged.joined(separator: ", "))")) }
    parts.append(
      .data(
        key: "undo",
        .object([
          .init("file", .string(path)), .init("commands", .array(document.commands.map { .string($0) })),
          .init("records", .int(written)), .init("overridden", .array(laterChanged.map { .string($0) })),
        ])))
    return CommandResult(parts: parts)
  }

  /// Each device's reverts inside the transactions of the devices before it.
  private static func revert(_ plans: ArraySlice<(device: Device, reverts: [RecordRevert])>) throws -> Int {
    guard let first = plans.first else { return 0 }
    return try first.device.library.transaction { bound in
      let written = try bound.revert(first.reverts)
      return written + (try revert(plans.dropFirst()))
    }
  }
}
