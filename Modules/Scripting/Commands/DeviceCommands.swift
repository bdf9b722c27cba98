import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// device add, use, list, offline, online: several simulated devices in one session, each
/// of which can be taken offline.
enum DeviceCommands {
  static let add = CommandSpec(
    "device add", summary: "Add a device with its own store (in memory unless --store is given).",
    parameters: [.rest("name", .name, help: "the device's name, e.g. phone")],
    options: [
      .value("store", "a SQLite file for the device's store", placeholder: "PATH"),
      .flag("memory", "a fresh in-memory store (the default)"),
    ],
    oneOf: [OneOf("--store", "--memory")],
    examples: ["device add phone", "device add laptop --store /tmp/laptop.sqlite"]
  ) { invocation, session in
    let location = invocation.option("store").map { Session.location(forStorePath: expandHome($0)) } ?? "memory"
    let device = try session.addDevice(invocation.argument("name"), location: location, command: invocation.command)
    return CommandResult(
      .message("added device '\(device.name)' (\(device.location)); switch to it with: device use \(Lexer.quote(device.name))"),
      .data(key: "device", ["name": .string(device.name), "store": .string(device.location)]))
  }

  static let use = CommandSpec(
    "device use", summary: "Make a device the current one: later commands read and write its store.",
    parameters: [.rest("name", .name, completion: .devices, help: "a device name")],
    examples: ["device use phone"]
  ) { invocation, session in
    try session.useDevice(invocation.argument("name"), command: invocation.command)
    return CommandResult(
      .message("using device '\(session.current.name)'"), .data(key: "device", ["name": .string(session.current.name)]))
  }

  static let list = CommandSpec(
    "device list", summary: "The session's devices, their stores and record counts; * marks the current one.",
    examples: ["device list"]
  ) { _, session in
    var rows: [[JSONValue]] = []
    for device in session.devices {
      let counts = try device.library.counts()
      let total = counts.values.reduce(0, +)
      rows.append([
        .bool(device === session.current), .string(device === session.current ? "*" : ""), .string(device.name),
        .string(device.location), .int(total),
      ])
    }
    var parts: [CommandResult.Part] = [
      .table(
        Table(
          key: "devices",
          columns: [
            Table.Column("current", jsonOnly: true), Table.Column("marker", ""), Table.Column("name", "DEVICE"),
            Table.Column("store", "STORE"), Table.Column("records", "RECORDS", alignRight: true),
          ],
          rows: rows, emptyText: "no devices"))
    ]
    if let cloud = session.cloud(for: session.current) { parts.append(.message("cloud: \(cloud.location)")) }
    return CommandResult(parts: parts)
  }

  static let offline = CommandSpec(
    "device offline", summary: "Take a device offline: it keeps working, and its changes wait for `device online`.",
    parameters: [.rest("name", .name, optional: true, completion: .devices, help: "a device (default: the current one)")],
    examples: ["device offline phone"]
  ) { invocation, session in
    let device = try named(invocation, session)
    session.sync.setOffline(device, true)
    return CommandResult(
      .message("device '\(device.name)' is offline"), .data(key: "device", ["name": .string(device.name), "online": false]))
  }

  static let online = CommandSpec(
    "device online", summary: "Bring a device back online (its waiting changes go out at its next sync).",
    parameters: [.rest("name", .name, optional: true, completion: .devices, help: "a device (default: the current one)")],
    examples: ["device online phone"]
  ) { invocation, session in
    let device = try named(invocation, session)
    session.sync.setOffline(device, false)
    return CommandResult(
      .message("device '\(device.name)' is online"), .data(key: "device", ["name": .string(device.name), "online": true]))
  }

  // MARK: Helpers

  private static func named(_ invocation: Invocation, _ session: Session) throws(ScriptError) -> Device {
    guard let name = invocation.optionalArgument("name") else { return session.current }
    guard let device = session.device(named: name) else {
      throw invocation.failure(
        "no device named '\(name)' (devices: \(session.devices.map(\.name).joined(separator: ", ")))", argument: "name")
    }
    return device
  }
}
