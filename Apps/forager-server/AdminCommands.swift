import ArgumentParser
import Foundation
import PostgresNIO
import SyncPostgres
import SyncServer
import SyncWire

struct SetupDatabase: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setup-db", abstract: "Create the server's tables, or upgrade them to this version's schema.")

  @OptionGroup var database: DatabaseOptions

  func run() async throws {
    do {
      let version = try await database.withClient { client, location in
        try await PostgresSchema.setUp(client, database: location.description, logger: .init(label: "forager-server"))
      }
      print("schema version \(version) is set up")
    } catch {
      throw report(error)
    }
  }
}

struct AddHousehold: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "add-household", abstract: "Add a household.")

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The household's name.") var name: String

  func run() async throws {
    do {
      let record = try await database.withAdministration { try await $0.addHousehold(name) }
      print("household '\(record.name)' added (log \(record.identifier))")
    } catch {
      throw report(error)
    }
  }
}

struct IssueToken: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "issue-token", abstract: "Issue a token for a device of a household (the device is added when new).")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String
  @Option(help: "The device's name.") var device: String
  @Option(help: "How many days the token works.") var days = 365
  @Option(help: "Write the token to this file (mode 600) instead of printing it.") var output: String?

  func run() async throws {
    guard days > 0 else { throw ValidationError("--days must be at least 1") }
    do {
      let issued = try await database.withAdministration { [household, device, days] in
        try await $0.issueToken(household: household, device: device, lifetime: TimeInterval(days) * 86_400)
      }
      let expires = issued.expiresAt.formatted(.iso8601)
      if let output {
        _ = FileManager.default.createFile(
          atPath: output, contents: Data((issued.token.secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        print("token \(issued.token.id) for device '\(issued.device)' of '\(issued.household)' written to \(output), expires \(expires)")
      } else {
        print(issued.token.secret)
        FileHandle.standardError.write(
          Data("token \(issued.token.id) for device '\(issued.device)' of '\(issued.household)', expires \(expires); shown only now\n".utf8)
        )
      }
    } catch {
      throw report(error)
    }
  }
}

struct RevokeToken: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "revoke-token", abstract: "Revoke a token by its id, or every token of a device.")

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The token's id (tok_…), as issue-token printed it.") var id: String?
  @Option(help: "With --device: revoke every token of this device of this household.") var household: String?
  @Option(help: "The device whose tokens to revoke.") var device: String?

  func run() async throws {
    do {
      switch (id, household, device) {
      case (let id?, nil, nil):
        let revoked = try await database.withAdministration { try await $0.revokeToken(id: id) }
        guard revoked else { throw ValidationError("there is no live token \(id)") }
        print("token \(id) revoked")
      case (nil, let household?, let device?):
        let count = try await database.withAdministration { try await $0.revokeTokens(household: household, device: device) }
        print("\(count) token(s) of device '\(device)' revoked")
      default:
        throw ValidationError("give a token id, or --household and --device")
      }
    } catch {
      throw report(error)
    }
  }
}

struct Devices: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "List a household's devices: name, replica, schema version, last seen.")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String

  func run() async throws {
    do {
      let devices = try await database.withAdministration { [household] in try await $0.devices(household: household) }
      if devices.isEmpty { print("no devices") }
      for device in devices {
        let seen = device.lastSeen?.formatted(.iso8601) ?? "never"
        print(
          "\(device.device)\tregistered as '\(device.name)'\treplica \(device.replicaID ?? "-")\tschema \(device.schemaVersion)\tlast seen \(seen)"
        )
      }
    } catch {
      throw report(error)
    }
  }
}

struct SetMinimumSchema: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set-minimum-schema",
    abstract: "Refuse pushes of batches below a schema version (once every device of the household is upgraded).")

  @OptionGroup var database: DatabaseOptions
  @Option(help: "The household.") var household: String
  @Option(help: "The oldest schema version the household takes pushes from (1–10000).") var schema: Int

  func run() async throws {
    do {
      try await database.withAdministration { [household, schema] in try await $0.setMinimumSchema(household: household, version: schema) }
      print("household '\(household)' takes pushes of schema v\(schema) or newer")
    } catch {
      throw report(error)
    }
  }
}
