import CommandLanguage
import Foundation
import Sync

/// `sync live on|off`: a device that hears its cloud and syncs by itself — changes from the
/// household arrive at the prompt, local writes go out within the debounce (Docs/SYNC.md,
/// "Live"). The REPL polls the channel beside its terminal; `sync wait` runs it in scripts.
enum SyncLiveCommands {
  static let live = CommandSpec(
    "sync live",
    summary: "Turn live sync on or off for the current device (or --device NAME); without on/off, show its state.",
    parameters: [
      .word(
        "state", .choice(["on", "off"]), optional: true, completion: .words(["on", "off"]), help: "on or off (nothing: show the state)")
    ],
    options: [.value("device", "the device to make live (default: the current one)", completion: .devices)],
    details: [
      "A live device keeps a channel to its cloud open: changes another device pushes are pulled at once (the REPL prints a one-line notice at the prompt) and every local write is pushed a moment later (20 ms), a burst of writes as one batch.",
      "A dropped or refused channel (a server at its per-token limit answers 429 live-token-limit) falls back to polling with backoff and is opened again; nothing is lost, since the cursor decides what is pulled.",
      "In a script, live syncs run while `sync wait` waits.",
    ],
    examples: ["sync live on", "sync live", "sync live off --device phone"]
  ) { invocation, session in
    let device = try SyncWaitCommands.target(invocation, session)
    switch invocation.optionalArgument("state") {
    case "on":
      try SyncWaitCommands.checkCanSync(device, invocation, session)
      let started: LiveSync
      do {
        started = try session.startLive(device)
      } catch {
        throw invocation.failure("\(error)")
      }
      return CommandResult(
        .message(
          "device '\(device.name)' is live on \(started.engine.cloud.location): changes from the household arrive by themselves, local writes are pushed within \(LiveSyncDescription.milliseconds(started.options.debounce)) ms"
        ),
        .data(key: "live", .object(LiveSyncDescription.fields(device, session))))
    case "off":
      let was = session.stopLive(device)
      return CommandResult(
        .message(
          was
            ? "device '\(device.name)' is no longer live: its channel is closed; it syncs when you type sync"
            : "device '\(device.name)' was not live; nothing changed"),
        .data(key: "live", .object(LiveSyncDescription.fields(device, session))))
    default:
      return CommandResult(
        .message(LiveSyncDescription.line(device, session)), .data(key: "live", .object(LiveSyncDescription.fields(device, session))))
    }
  }
}

/// How `sync live` and `sync status` describe a device's live state.
enum LiveSyncDescription {
  /// subscribed (a channel is open and heard), polling (it dropped or was refused: polling
  /// with backoff, opening it again), or off.
  static func channel(_ mode: LiveSync.Mode?) -> String {
    switch mode {
    case .live: "subscribed"
    case .polling: "polling"
    case .off, nil: "off"
    }
  }

  /// The household's log end heard minus the device's cursor, when the device is live.
  static func lag(_ live: LiveSync?) -> Int? { (try? live?.lag()).map { Int($0) } }

  static func fields(_ device: Device, _ session: Session) -> [JSONValue.Member] {
    let live = session.liveSync(for: device)
    let status = live?.status
    return [
      .init("device", .string(device.name)), .init("live", .bool(live != nil)), .init("channel", .string(channel(status?.mode))),
      .init("lastAnnouncement", status?.lastAnnouncement.map { .int(Int($0)) } ?? .null),
      .init("lastAnnouncementAt", status?.lastAnnouncementAt.map { .string($0.formatted(.iso8601)) } ?? .null),
      .init("heardLatest", status.map { .int(Int($0.heardLatest)) } ?? .null),
      .init("lag", lag(live).map { .int($0) } ?? .null),
      .init("lastDrop", status?.lastDrop.map { .string($0) } ?? .null),
      .init("lastError", status?.lastError.map { .string($0) } ?? .null),
      .init("liveSyncs", .int(status?.syncs ?? 0)),
    ]
  }

  /// "device 'phone': live, subscribed; last announcement #12 at …; lag 0".
  static func line(_ device: Device, _ session: Session) -> String {
    guard let live = session.liveSync(for: device) else {
      return "device '\(device.name)' is not live (turn it on with: sync live on)"
    }
    let status = live.status
    var text = "device '\(device.name)': live, \(channel(status.mode))"
    if status.mode == .polling, let drop = status.lastDrop { text += " with backoff (channel ended: \(drop))" }
    if let sequence = status.lastAnnouncement, let at = status.lastAnnouncementAt {
      text += "; last announcement #\(sequence) at \(at.formatted(.iso8601))"
    } else {
      text += "; no announcement yet"
    }
    if let lag = lag(live) { text += "; lag \(lag)" }
    if let error = status.lastError { text += "; last sync failed: \(error)" }
    return text
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let parts = duration.components
    return Int(parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000)
  }
}
