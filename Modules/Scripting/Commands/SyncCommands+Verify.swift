import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// `sync verify`: checks that a device's tables are the view of its sync state, and with
/// `--repair` rewrites them from it (``SyncVerifier``).
enum SyncVerifyCommands {
  static let verify = CommandSpec(
    "sync verify",
    summary: "Check that a device's tables show exactly what its sync state says (--repair rewrites them from it).",
    options: [
      .value("device", "the device to check (default: the current one)", completion: .devices),
      .flag("repair", "rewrite the rows that differ from the sync state, in one transaction"),
    ],
    details: [
      "The view is computed again from the sync state alone and compared record by record, field by field: what to run after a crash or an upgrade.",
      "Records with local changes no sync has recorded yet are left out; `--repair` refuses until a `sync` records them.",
      "Finding a difference is a failure (forager-batch exits 1); a repair that leaves none succeeds.",
    ],
    examples: ["sync verify", "sync verify --device phone --json", "sync verify --repair"]
  ) { invocation, session in
    let device = try target(invocation, session)
    if session.storeOpened != nil || session.devices.contains(where: { $0.library.isInTransaction }) {
      throw invocation.failure(
        "sync verify cannot run inside a transaction (an --atomic script or `expect fails`): it reads and repairs committed data")
    }
    let verifier = SyncVerifier(store: device.store)
    guard invocation.flag("repair") else {
      let verification: SyncVerification
      do {
        verification = try verifier.verify()
      } catch {
        throw invocation.failure("device '\(device.name)': \(error)")
      }
      let result = SyncVerifyCommands.result(device.name, verification, repaired: nil)
      guard verification.isClean else {
        throw invocation.failure(
          "device '\(device.name)': \(verification.differingRecords) record(s) differ from the sync state; `sync verify --repair` rewrites them",
          result: result)
      }
      return result
    }
    let repaired: SyncVerification, after: SyncVerification
    do {
      repaired = try verifier.repair(at: session.now())
      after = try verifier.verify()
    } catch let error as SyncVerifyError {
      throw invocation.failure("device '\(device.name)': \(error); nothing changed", argument: "--repair")
    } catch {
      throw invocation.failure("device '\(device.name)': \(error); nothing changed")
    }
    let result = SyncVerifyCommands.result(device.name, after, repaired: repaired)
    guard after.isClean else {
      throw invocation.failure(
        "device '\(device.name)': \(after.differingRecords) record(s) still differ from the sync state after the repair", result: result)
    }
    return result
  }

  /// The message, the table of differences (for a repair: what it rewrote) and the data.
  private static func result(_ name: String, _ verification: SyncVerification, repaired: SyncVerification?) -> CommandResult {
    let shown = repaired ?? verification
    var message: String
    if let repaired {
      message =
        repaired.isClean
        ? "device '\(name)': nothing to repair; the tables are the view of the sync state (\(verification.checked) records)"
        : "device '\(name)': rewrote \(repaired.repaired) record(s) from the sync state; the tables are now its view"
    } else if verification.isClean {
      message = "device '\(name)': the tables are the view of the sync state (\(verification.checked) records)"
    } else {
      message =
        "device '\(name)': \(verification.differingRecords) record(s) differ from the sync state (\(verification.differences.count) difference(s))"
    }
    if verification.unstamped > 0 {
      message += "; \(verification.unstamped) record(s) with local changes not yet synced were left out"
    }
    let rows: [[JSONValue]] = shown.differences.map { difference in
      [
        .string(difference.kind.rawValue), .string(difference.id.lowercaseText), .string(difference.field), .string(difference.table),
        .string(difference.expected),
      ]
    }
    return CommandResult(
      .message(message),
      .table(
        Table(
          key: "differences",
          columns: [
            Table.Column("kind", "KIND"), Table.Column("id", "ID"), Table.Column("field", "FIELD"), Table.Column("table", "TABLE"),
            Table.Column("expected", "SYNC STATE"),
          ],
          rows: rows, emptyText: repaired == nil ? "no differences" : "nothing rewritten")),
      .data(
        key: "verify",
        [
          "device": .string(name), "checked": .int(verification.checked), "unstamped": .int(verification.unstamped),
          "differing": .int(verification.differingRecords), "repaired": .int(repaired?.repaired ?? 0), "clean": .bool(verification.isClean),
        ]))
  }

  private static func target(_ invocation: Invocation, _ session: Session) throws(ScriptError) -> Device {
    guard let name = invocation.option("device") else { return session.current }
    guard let device = session.device(named: name) else {
      throw invocation.failure(
        "no device named '\(name)' (devices: \(session.devices.map(\.name).joined(separator: ", ")))", argument: "--device")
    }
    return device
  }
}
