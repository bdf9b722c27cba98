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
  @Option(help: "How many days the token works (1–3650).") var days = 365
  @Option(help: "Write the token to this file (mode 600; its directory must exist) instead of printing it.") var output: String?

  func validate() throws {
    try check(days, in: 1...3_650, option: "--days")
    if let output {
      do { _ = try TokenFile(path: output) } catch { throw ValidationError("\(error)") }
    }
  }

  func run() async throws {
    let file = try output.map { try TokenFile(path: $0) }
    do {
      let issued = try await database.withAdministration { [household, device, days] admin in
        let issued = try await admin.issueToken(household: household, device: device, lifetime: TimeInterval(days) * 86_400) {
          try file?.stage($0.token.secret)
        }
        do {
          try file?.commit()
        } catch {
          // Stored but not written: the token must not stay live.
          let revoked = (try? await admin.revokeToken(id: issued.token.id)) ?? false
          throw CommandFailure(
            "\(error); token \(issued.token.id) "
              + (revoked ? "was revoked" : "could not be revoked: revoke it with forager-server revoke-token \(issued.token.id)"))
        }
        return issued
      }
      let expires = issued.expiresAt.formatted(.iso8601)
      if let file {
        print("token \(issued.token.id) for device '\(issued.device)' of '\(issued.household)' written to \(file.path), expires \(expires)")
      } else {
        print(issued.token.secret)
        FileHandle.standardError.write(
          Data("token \(issued.token.id) for device '\(issued.device)' of '\(issued.household)', expires \(expires); shown only now\n".utf8)
        )
      }
    } catch {
      file?.discard()
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

  func validate() throws {
    switch (id, household, device) {
    case (_?, nil, nil), (nil, _?, _?): return
    default: throw ValidationError("give a token id, or --household and --device")
    }
  }

  func run() async throws {
    do {
      if let id {
        guard try await database.withAdministration({ try await $0.revokeToken(id: id) }) else { throw ServerError.noLiveToken(id) }
        print("token \(id) revoked")
      } else if let household, let device {
        let count = try await database.withAdministration { try await $0.revokeTokens(household: household, device: device) }
        print(count == 0 ? "device '\(device)' has no live token; nothing revoked" : "\(count) token(s) of device '\(device)' revoked")
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

  func validate() throws { try check(schema, in: 1...10_000, option: "--schema") }

  func run() async throws {
    do {
      try await database.withAdministration { [household, schema] in try await $0.setMinimumSchema(household: household, version: schema) }
      print("household '\(household)' takes pushes of schema v\(schema) or newer")
    } catch {
      throw report(error)
    }
  }
}
