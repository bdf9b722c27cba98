// A live weekly list in the terminal, synced through a sync server: what an app built on
// Forager does, in three parts an app copies.
//
// 1. It opens its store (one SQLite file) and joins the household on `forager-server`
//    with the device's token, then keeps the device live (`LiveSync` on a thread of its own).
// 2. It observes the list (`library.live.shoppingList`) and shows it again after every
//    change, whatever made it: a command typed here, or another device's change pulled by
//    live sync. The display never asks whether something changed; the observation tells it.
// 3. It reads commands from standard input and writes through the repositories
//    (`library.lists`); the observation shows the result, and live sync pushes it.
//
//   forager-example-live-list --store kitchen.sqlite --server http://127.0.0.1:8080 \
//     --token-file phone.token --list Groceries
//   > add 2 lb tomatoes
//   > check tomatoes
//   > quit

import ArgumentParser
import Foundation
import Model
import Persistence
import PersistenceSQLite
import Repositories
import Sync
import SyncHTTP

@main
struct LiveWeeklyList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forager-example-live-list",
    abstract: "Show a weekly list that updates live, and check items off, synced through forager-server.",
    discussion: "Commands on standard input: add ITEM, check ITEM, uncheck ITEM, help, quit.")

  @Option(help: "The device's store file; created when missing.")
  var store: String

  @Option(help: "The sync server's address (or set FORAGER_SERVER).")
  var server: String?

  @Option(help: "A file holding the device's token (or set FORAGER_TOKEN).")
  var tokenFile: String?

  @Option(help: "The household the token must belong to.")
  var household: String?

  @Option(help: "The list's name.")
  var list = "Groceries"

  @Option(help: "The list's ISO week (2024-W50, or a date in it); the current week by default.")
  var week: String?

  mutating func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let server = server ?? environment["FORAGER_SERVER"] else {
      throw ValidationError("give the sync server's address with --server URL or FORAGER_SERVER")
    }
    let token = try Self.token(file: tokenFile, environment: environment)

    // 1. The store, the household, and a first sync, so the list shows what the household has.
    let library = Library(store: try SQLiteStore(path: store))
    let cloud = try HTTPCloud(url: server, token: token, household: household)
    let engine = SyncEngine(store: library.store, cloud: cloud, deviceName: cloud.serverDevice)
    try engine.sync()
    let weeklyList = try library.lists.getOrCreate(list, week: week).list
    // "2024-W50 Groceries" names the list by its semantic key: it stays the same list when
    // another device created one of the same week and name and the two are merged.
    let reference = "\(weeklyList.weekIdentifier) \(weeklyList.displayName)"
    Output.say("joined household '\(cloud.household)' on \(server) as '\(cloud.serverDevice)'")

    let sync = SyncLoop(engine: engine)
    let syncing = Task { await sync.run() }

    // 2. The list, shown now and again after every change that can touch it. The
    // observation is a value that can go to another task; the library stays here.
    let observation = library.live.shoppingList(reference, includeDone: true)
    let display = Task {
      do {
        for try await shopping in observation {
          Output.say(ListText.render(shopping))
        }
      } catch {
        Output.complain("the list can no longer be shown: \(error)")
      }
    }
    // The sync monitor: say when syncing fails, and when it works again.
    let monitor = Task {
      var failing: String?
      for await status in engine.monitor.updates() where status.lastError != failing {
        if let error = status.lastError { Output.complain("sync failed: \(error); changes wait here") }
        if failing != nil, status.lastError == nil { Output.say("sync works again") }
        failing = status.lastError
      }
    }

    // 3. Commands, one a line, until `quit` or the end of the input.
    for await line in Input.lines() {
      do {
        guard let command = try InputCommand(line) else { continue }
        if command == .quit { break }
        try command.apply(to: library.lists, list: reference)
        sync.noteLocalWrite()
      } catch {
        Output.complain("\(error)")
      }
    }
    display.cancel()
    monitor.cancel()
    sync.finish()
    _ = await syncing.value
  }

  /// The token from `--token-file` or `FORAGER_TOKEN`: one word of printable ASCII (a
  /// wrong file is refused here, and its text is not repeated in a message).
  static func token(file: String?, environment: [String: String]) throws -> String {
    let token = try tokenText(file: file, environment: environment)
    guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw ValidationError("the token from \(file.map { "'\($0)'" } ?? "FORAGER_TOKEN") is not one word of printable ASCII")
    }
    return token
  }

  private static func tokenText(file: String?, environment: [String: String]) throws -> String {
    guard let file else {
      guard let token = environment["FORAGER_TOKEN"], !token.isEmpty else {
        throw ValidationError("give the device's token with --token-file FILE or FORAGER_TOKEN")
      }
      return token.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    // A token is a short line: a file much larger than one is the wrong file.
    guard let data = FileManager.default.contents(atPath: file), data.count <= 4_096,
      let text = String(data: data, encoding: .utf8)
    else {
      throw ValidationError("cannot read a token from '\(file)': no such file, larger than 4 KiB, or not text")
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
