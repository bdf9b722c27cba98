import ArgumentParser
import Foundation
import SyncServer

#if canImport(Glibc)
  import Glibc
#endif

struct Households: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the households: devices, live tokens, batches, bytes, last push.")

  @OptionGroup var database: DatabaseOptions

  func run() async throws {
    do {
      let households = try await database.withAdministration { try await $0.households() }
      if households.isEmpty { print("no households (add one: forager-server add-household NAME)") }
      for household in households {
        print(
          "'\(household.name)'\t\(household.devices) device(s)\t\(household.liveTokens) live token(s)\t\(household.batches) batch(es)\t"
            + "\(household.bytes) bytes\tlast push \(household.lastPush?.formatted(.iso8601) ?? "never")\tlog \(household.identifier)")
      }
    } catch {
      throw report(error)
    }
  }
}

struct RenameHousehold: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rename-household", abstract: "Rename a household; its devices and tokens go on working.")

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The household's name now.") var name: String
  @Argument(help: "Its new name.") var newName: String

  func run() async throws {
    do {
      try await database.withAdministration { [name, newName] in try await $0.renameHousehold(name, to: newName) }
      print("household '\(name)' is now '\(newName)'")
    } catch {
      throw report(error)
    }
  }
}

struct DeleteHousehold: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete-household",
    abstract: "Delete a household: its log, devices and tokens, in one transaction. Its tokens are refused at once.")

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The household.") var name: String
  @Flag(help: "Delete without asking (needed when standard input is not a terminal).") var yes = false

  func run() async throws {
    if !yes {
      guard isatty(STDIN_FILENO) == 1 else {
        throw CommandFailure("deleting household '\(name)' cannot be undone: confirm with --yes; nothing was deleted")
      }
      print("Delete household '\(name)' with its whole log, devices and tokens? Type its name to confirm: ", terminator: "")
      guard readLine() == name else { throw CommandFailure("not confirmed; nothing was deleted") }
    }
    do {
      let deleted = try await database.withAdministration { [name] in try await $0.deleteHousehold(name) }
      print("household '\(name)' deleted: \(deleted.batches) batch(es), \(deleted.devices) device(s), \(deleted.tokens) token(s)")
    } catch {
      throw report(error)
    }
  }
}
