import CommandLanguage
import Foundation
import Sync
import SyncHTTP
import SyncMemory
import SyncSQLite

/// `cloud open`: the cloud the session's devices sync through — a SQLite file several
/// processes share, a cloud in memory, or a household on `forager-server`, which each
/// device reaches with its own token.
enum CloudCommands {
  /// The largest token file read (a token is 49 characters).
  static let tokenFileLimit = 4_096
  /// Where a token comes from when no `--token-file` is given.
  static let tokenVariable = "FORAGER_TOKEN"

  static let open = CommandSpec(
    "cloud open",
    summary: "Choose the cloud the session's devices sync through: a SQLite file, memory, or a sync server (http://HOST:PORT).",
    parameters: [.rest("path", optional: true, help: "a cloud file shared by every process that opens it, or a server's http://HOST:PORT")],
    options: [
      .flag("memory", "a cloud in memory, shared by this session's devices only"),
      .value("token-file", "a server: the file holding the device's token (forager-server issue-token --output); default $FORAGER_TOKEN"),
      .value("device", "a server: the session device the token is for (default: the current one)", completion: .devices),
      .value("household", "a server: the household the token must belong to"),
    ],
    oneOf: [OneOf("path", "--memory", required: true)],
    details: [
      "A cloud file can be shared by several forager processes: each is a device of the same household.",
      "A server is reached by each device with its own token: run `cloud open URL --token-file F --device NAME` once per device. Opening asks the server who the token is, so the server must be reachable then; later, an unreachable server is offline: changes wait and the next sync catches up.",
      "A device that syncs with a different cloud than before pulls everything from it and pushes all its own changes again.",
    ],
    examples: [
      "cloud open ~/kitchen-cloud.sqlite", "cloud open --memory",
      "cloud open http://127.0.0.1:8080 --token-file phone.token --household \"Smith kitchen\"",
    ]
  ) { invocation, session in
    let path = invocation.optionalArgument("path")
    let serverOptions = ["token-file", "device", "household"].filter { invocation.option($0) != nil }
    switch (path, invocation.flag("memory")) {
    case (let path?, false) where path.hasPrefix("http://") || path.hasPrefix("https://"):
      return try openServer(path, invocation, session)
    case (_, let memory):
      if let option = serverOptions.first {
        throw invocation.failure("--\(option) is for a sync server (cloud open http://HOST:PORT …)", argument: "--\(option)")
      }
      let cloud: any CloudStore
      if memory {
        cloud = InMemoryCloud()
      } else {
        do {
          cloud = try SQLiteCloud(path: expandHome(path ?? ""))
        } catch {
          throw invocation.failure(String(describing: error), argument: "path")
        }
      }
      session.cloud = cloud
      session.server = nil
      return CommandResult(.message("using cloud \(cloud.location)"), .data(key: "cloud", ["location": .string(cloud.location)]))
    }
  }

  /// Connects one session device to a household on the server with its token.
  private static func openServer(_ url: String, _ invocation: Invocation, _ session: Session) throws(ScriptError) -> CommandResult {
    let device: Device
    if let name = invocation.option("device") {
      guard let named = session.device(named: name) else {
        throw invocation.failure(
          "no device named '\(name)' (devices: \(session.devices.map(\.name).joined(separator: ", ")))", argument: "--device")
      }
      device = named
    } else {
      device = session.current
    }
    let token = try token(invocation)
    let cloud: HTTPCloud
    do {
      cloud = try HTTPCloud(url: url, token: token, household: invocation.option("household"))
    } catch {
      throw invocation.failure("\(error); nothing changed", argument: "path")
    }
    var address = url
    while address.hasSuffix("/") { address.removeLast() }
    var clouds = session.server?.url == address ? session.server?.clouds ?? [:] : [:]
    clouds[device.name] = cloud
    session.server = (address, clouds)
    session.cloud = nil
    return CommandResult(
      .message("using server \(address), household '\(cloud.household)': device '\(device.name)' syncs as '\(cloud.serverDevice)'"),
      .data(
        key: "cloud",
        [
          "location": .string(cloud.location), "household": .string(cloud.household), "device": .string(device.name),
          "serverDevice": .string(cloud.serverDevice),
        ]))
  }

  /// The token from `--token-file` or `$FORAGER_TOKEN`.
  private static func token(_ invocation: Invocation) throws(ScriptError) -> String {
    guard let file = invocation.option("token-file") else {
      guard let token = ProcessInfo.processInfo.environment[tokenVariable], !token.isEmpty else {
        throw invocation.failure(
          "a server needs the device's token: give --token-file FILE or set \(tokenVariable)", argument: "--token-file")
      }
      return token.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let path = expandHome(file)
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let size = attributes?[.size] as? Int else {
      throw invocation.failure("cannot read the token file '\(file)': no such file", argument: "--token-file")
    }
    guard size <= tokenFileLimit, let data = FileManager.default.contents(atPath: path) else {
      throw invocation.failure("'\(file)' is not a token file (\(size) bytes; a token is one short line)", argument: "--token-file")
    }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw invocation.failure(
        "'\(file)' does not hold a token (one line, as forager-server issue-token writes it)", argument: "--token-file")
    }
    return text
  }

  /// What to do when `device` has no cloud yet.
  static func missing(for device: Device, _ session: Session) -> String {
    if let server = session.server {
      return
        "device '\(device.name)' has no token for the server \(server.url): cloud open \(server.url) --token-file FILE --device \(Lexer.quote(device.name))"
    }
    return
      "there is no cloud yet: cloud open PATH (a file several processes can share), cloud open http://HOST:PORT --token-file FILE (a sync server), or cloud open --memory"
  }
}
