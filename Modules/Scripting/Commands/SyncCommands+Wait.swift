import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// `sync wait --until …`: waits, live or polling, until the household reaches a state, so
/// scripts of several devices test live behaviour without guessing how long it takes.
enum SyncWaitCommands {
  /// The longest wait a script may ask for, in seconds.
  static let timeoutLimit = 3_600.0
  static let defaultTimeout = 30.0
  /// How often a device that is not live syncs while it waits.
  static let pollInterval = 0.25

  /// What `--until` names.
  enum Condition: Equatable {
    /// The device's cursor is at the household's latest sequence and nothing local waits.
    case caughtUp
    /// The list holds an item of this name (checked off, when `checked`).
    case item(name: String, list: String, checked: Bool)

    static let forms = "caught-up, \"item NAME on LIST\" or \"item NAME checked on LIST\""

    /// Reads `caught-up`, `item NAME on LIST` or `item NAME checked on LIST`.
    static func parse(_ text: String) -> Condition? {
      let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      if words.count == 1, words[0].lowercased() == "caught-up" { return .caughtUp }
      guard words.first?.lowercased() == "item", let on = words.lastIndex(where: { $0.lowercased() == "on" }), on > 1,
        on < words.count - 1
      else { return nil }
      var name = Array(words[1..<on])
      let checked = name.count > 1 && name.last?.lowercased() == "checked"
      if checked { name.removeLast() }
      return .item(name: name.joined(separator: " "), list: words[(on + 1)...].joined(separator: " "), checked: checked)
    }

    var description: String {
      switch self {
      case .caughtUp: "the household's latest sequence with nothing pending"
      case .item(let name, let list, let checked): "item '\(name)'\(checked ? " checked" : "") on list '\(list)'"
      }
    }
  }

  static let wait = CommandSpec(
    "sync wait",
    summary: "Wait until the current device (or --device NAME) reaches a state: caught up with the household, or an item on a list.",
    options: [
      .value("until", "caught-up, \"item NAME on LIST\" or \"item NAME checked on LIST\"", .waitCondition, required: true),
      .value(
        "timeout", "the longest wait in seconds (default 30)", .number, placeholder: "SECONDS", range: .above(0, atMost: timeoutLimit)),
      .value("device", "the device that waits (default: the current one)", completion: .devices),
    ],
    details: [
      "A live device (sync live on) syncs as announcements arrive while it waits; any other device syncs every quarter second.",
      "caught-up: the device pulled up to the household's latest sequence and has nothing left to push.",
      "A wait that runs out fails naming what it waited for (the script stops, forager-batch exits with 1).",
    ],
    examples: ["sync wait --until caught-up", "sync wait --until \"item Milk on Groceries\" --timeout 5"]
  ) { invocation, session in
    let text = invocation.required("until")
    guard let condition = Condition.parse(text) else {
      throw invocation.failure("cannot wait until '\(text)': give \(Condition.forms)", argument: "--until")
    }
    let timeout = invocation.option("timeout").flatMap(Double.init) ?? defaultTimeout
    let device = try target(invocation, session)
    try checkCanSync(device, invocation, session)
    guard let cloud = session.cloud(for: device) else { throw invocation.failure(CloudCommands.missing(for: device, session)) }
    let live = session.liveSync(for: device)
    let engine =
      live?.engine
      ?? SyncEngine(
        store: device.store, cloud: cloud, deviceName: device.name, monitor: session.sync.monitor(for: device, clock: session.now))
    let start = session.liveClock()
    let deadline = start.addingTimeInterval(timeout)
    var lastError: String?
    while true {
      if live != nil {
        _ = session.runLive()
        lastError = live?.status.lastError
      } else {
        do {
          try engine.sync()
          lastError = nil
        } catch {
          lastError = "\(error)"
        }
      }
      var state = try progress(engine, cloud)
      if condition == .caughtUp, live != nil, let latest = state.latest, latest > state.cursor {
        // An announcement lost or not yet heard: the cursor decides, so pull now.
        do { try engine.sync() } catch { lastError = "\(error)" }
        state = try progress(engine, cloud)
      }
      if try holds(condition, device, state) {
        let waited = max(0, session.liveClock().timeIntervalSince(start))
        return CommandResult(
          .message("device '\(device.name)' reached \(condition.description) (cursor \(state.cursor))"),
          .data(
            key: "wait",
            [
              "device": .string(device.name), "until": .string(text), "reached": true, "cursor": .int(Int(state.cursor)),
              "latest": state.latest.map { .int(Int($0)) } ?? .null, "pending": .bool(state.pending),
              "waited": .double((waited * 1_000).rounded() / 1_000), "live": .bool(live != nil),
            ]))
      }
      let remaining = deadline.timeIntervalSince(session.liveClock())
      guard remaining > 0 else {
        var reason =
          "timed out after \(formatted(timeout)) s waiting for \(condition.description) on device '\(device.name)' (cursor \(state.cursor)"
        if let latest = state.latest { reason += ", household at \(latest)" }
        reason += state.pending ? ", local changes still pending)" : ")"
        if let lastError { reason += "; last sync failed: \(lastError)" }
        throw invocation.failure(reason, argument: "--until")
      }
      if let live {
        live.wait(timeout: .milliseconds(Int(min(remaining, 1) * 1_000)))
      } else {
        Thread.sleep(forTimeInterval: min(remaining, pollInterval))
      }
    }
  }

  /// Where the device stands: its cursor, the household's latest sequence (nil when the
  /// cloud cannot be reached) and whether local changes wait.
  private static func progress(_ engine: SyncEngine, _ cloud: any CloudStore) throws -> (cursor: Int64, latest: Int64?, pending: Bool) {
    (try engine.cursor(), try? cloud.latestSequence(), try engine.hasPendingChanges())
  }

  private static func holds(_ condition: Condition, _ device: Device, _ state: (cursor: Int64, latest: Int64?, pending: Bool)) throws
    -> Bool
  {
    switch condition {
    case .caughtUp:
      guard let latest = state.latest else { return false }
      return state.cursor >= latest && !state.pending
    case .item(let name, let list, let checked):
      let items: [GroceryListItem]
      do {
        items = try device.library.lists.items(of: list)
      } catch RepositoryError.notFound {
        return false  // the list has not arrived yet
      }
      return items.contains { $0.displayName.lowercased() == name.lowercased() && (!checked || $0.isCompleted) }
    }
  }

  private static func formatted(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }

  // MARK: Shared with sync live

  static func target(_ invocation: Invocation, _ session: Session) throws(ScriptError) -> Device {
    guard let name = invocation.option("device") else { return session.current }
    guard let device = session.device(named: name) else {
      throw invocation.failure(
        "no device named '\(name)' (devices: \(session.devices.map(\.name).joined(separator: ", ")))", argument: "--device")
    }
    return device
  }

  /// The checks every command that syncs shares: no atomic run, no open transaction, a
  /// cloud, and the device online.
  static func checkCanSync(_ device: Device, _ invocation: Invocation, _ session: Session) throws(ScriptError) {
    if session.storeOpened != nil {
      throw invocation.failure(
        "\(invocation.command) cannot run inside an --atomic script: syncing commits as it goes; run the script without --atomic")
    }
    if session.devices.contains(where: { $0.library.isInTransaction }) {
      throw invocation.failure("\(invocation.command) cannot run inside another command's transaction (as in `expect fails`)")
    }
    guard session.cloud(for: device) != nil else { throw invocation.failure(CloudCommands.missing(for: device, session)) }
    if session.sync.isOffline(device) {
      throw invocation.failure("device '\(device.name)' is offline; bring it back with: device online \(Lexer.quote(device.name))")
    }
  }
}
