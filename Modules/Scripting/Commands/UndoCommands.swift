import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories

/// What one command of a session changed, for `undo`.
struct UndoStep {
  /// The command as typed (its name).
  let command: String
  /// The device whose store it changed.
  let device: Device
  let changes: [ChangeJournal.Change]
}

/// undo: revert the last commands of this session as new changes.
enum UndoCommands {
  static let undo = CommandSpec(
    "undo",
    summary:
      "Revert what the last N commands of this REPL session changed on the current device (1 by default), or what a batch script changed (--file, the undo file forager-batch --undo-file wrote), as new changes that sync like any edit; history keeps both. Refused when a later change (a sync, another device) rewrote the same records, unless --force.",
    parameters: [.word("count", .integer, optional: true, range: .from(1, to: 100), help: "how many commands, 1–100")],
    options: [
      .flag("force", "undo even what a later change rewrote, and say what it overrides"),
      .value("file", "apply the undo file a batch script wrote (forager-batch --undo-file), on the devices it names", placeholder: "PATH"),
    ],
    examples: ["undo", "undo 3", "undo --force", "undo --file undo.json"]
  ) { invocation, session in
    if let path = invocation.option("file") {
      guard invocation.optionalArgument("count") == nil else {
        throw invocation.failure("undo --file applies the whole file; give no count with it", argument: "count")
      }
      return try UndoFileCommand.apply(path, invocation: invocation, session: session)
    }
    let count = invocation.optionalArgument("count").flatMap { Int($0) } ?? 1
    guard session.keepsUndo else { throw invocation.failure("undo works in the REPL, which keeps what each command changed") }
    let device = session.current
    let mine = session.undoable.indices.filter { session.undoable[$0].device === device }
    guard !mine.isEmpty else {
      throw invocation.failure("nothing to undo: no command of this session changed a record of device '\(device.name)'")
    }
    guard count <= mine.count else {
      throw invocation.failure(
        "only \(mine.count) command\(mine.count == 1 ? "" : "s") of this session changed records of device '\(device.name)'",
        argument: "count")
    }
    let taken = Array(mine.suffix(count))
    let steps = taken.map { session.undoable[$0] }
    // Each record goes back to how it was before the oldest of the steps that changed it.
    var overridden: [String] = []
    var byDevice: [ObjectIdentifier: (device: Device, changes: [ChangeJournal.Change])] = [:]
    for step in steps.reversed() {
      let current = try step.device.store.read { reader in
        try step.changes.map { try reader.record($0.after.kind, id: $0.after.id) }
      }
      for (change, now) in zip(step.changes, current) {
        if let now, now.meta.isLive != change.after.meta.isLive || now.values != change.after.values {
          overridden.append("\(change.after.kind.label) '\(Lookup.displayName(now))'")
        }
      }
      var entry = byDevice[ObjectIdentifier(step.device)] ?? (step.device, [])
      entry.changes.append(contentsOf: step.changes)
      byDevice[ObjectIdentifier(step.device)] = entry
    }
    let laterChanged = Array(Set(overridden)).sorted()
    if !laterChanged.isEmpty && !invocation.flag("force") {
      throw invocation.failure(
        "a later change rewrote \(laterChanged.joined(separator: ", ")); undo --force overrides it, nothing was undone")
    }
    var written = 0
    for (device, changes) in byDevice.values {
      // Later steps first in `changes`: keep each record's oldest before.
      var oldest: [String: ChangeJournal.Change] = [:]
      var order: [String] = []
      for change in changes {
        let key = "\(change.after.kind.rawValue)/\(change.after.id.lowercaseText)"
        if oldest[key] == nil { order.append(key) }
        oldest[key] = change
      }
      written += try device.library.revert(Library.undoReverts(of: order.compactMap { oldest[$0] }))
    }
    for index in taken.reversed() { session.undoable.remove(at: index) }
    var parts: [CommandResult.Part] = [
      .message("undid \(steps.map(\.command).reversed().joined(separator: ", ")): \(written) record\(written == 1 ? "" : "s") written")
    ]
    if !laterChanged.isEmpty { parts.append(.message("overrode later changes to \(laterChanged.joined(separator: ", "))")) }
    parts.append(
      .data(
        key: "undo",
        .object([
          .init("commands", .array(steps.map { .string($0.command) })), .init("records", .int(written)),
          .init("overridden", .array(laterChanged.map { .string($0) })),
        ])))
    return CommandResult(parts: parts)
  }
}

extension Session {
  /// Runs a command, noting what it changed on the current device for `undo` when the
  /// session keeps undo (not for `undo` itself).
  func recordingUndo(of invocation: Invocation, _ body: () throws -> CommandResult) throws -> CommandResult {
    guard keepsUndo || undoFile != nil, invocation.spec.name != UndoCommands.undo.name else { return try body() }
    let device = current
    device.journal.start()
    let result: CommandResult
    do {
      result = try body()
    } catch {
      _ = try? device.journal.finish(reading: device.store)
      throw error
    }
    let changes = try device.journal.finish(reading: device.store)
    guard !changes.isEmpty else { return result }
    undoable.append(UndoStep(command: invocation.command, device: device, changes: changes))
    if let undoFile {
      // Every step is kept for the file, rewritten after each command that changed records.
      do { try undoFile.write(undoable) } catch { throw invocation.failure("\(error.description); the command's changes are kept") }
    } else if undoable.count > Self.undoLimit {
      undoable.removeFirst(undoable.count - Self.undoLimit)
    }
    return result
  }

  /// The commands `undo` can reach back.
  static let undoLimit = 100
}
