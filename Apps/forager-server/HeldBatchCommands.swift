import ArgumentParser
import Foundation
import SyncServer

struct HeldBatches: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "held-batches",
    abstract: "List a household's held batches: pushed with a schema newer than this server reads, stored unread, not retired.")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String

  func run() async throws {
    do {
      let held = try await database.withAdministration { [household] in try await $0.heldBatches(household: household) }
      if held.isEmpty { print("household '\(household)' holds no batches of a newer schema") }
      for batch in held {
        print(
          "sequence \(batch.sequence)\tdevice '\(batch.device)'\tbatch \(batch.batchID)\tschema v\(batch.schemaVersion)\t"
            + "\(batch.bytes) bytes\tpushed \(batch.pushedAt.formatted(.iso8601))")
      }
    } catch {
      throw report(error)
    }
  }
}

struct RetireBatch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "retire-batch",
    abstract: "Retire a held batch: every device forgets it (Docs/SERVER.md, \"Retiring a held batch\").")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String
  @Option(help: "The batch's sequence, as held-batches lists it.") var sequence: Int64
  @Flag(help: "Retire it even though a device other than its pusher registered a schema that reads it (it may have applied it).")
  var force = false

  func run() async throws {
    do {
      let retired = try await database.withAdministration { [household, sequence, force] in
        try await $0.retireBatch(household: household, sequence: sequence, force: force)
      }
      print(
        "batch \(retired.batch.sequence) (\(retired.batch.batchID), schema v\(retired.batch.schemaVersion), \(retired.batch.bytes) bytes "
          + "from device '\(retired.batch.device)') retired; notice \(RetireRules.noticeID(of: retired.batch.sequence)) is sequence "
          + "\(retired.noticeSequence). Revoke or reset device '\(retired.batch.device)' before it pushes that schema again")
    } catch {
      throw report(error)
    }
  }
}
