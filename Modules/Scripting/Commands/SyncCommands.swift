import CommandLanguage
import Foundation
import Model
import Repositories
import Sync

/// Sync between the session's devices through their cloud (``CloudCommands``): `sync`,
/// `sync all`, `sync status`; `sync live`, `sync wait` and `sync verify` are in the
/// SyncCommands+Live, +Wait and +Verify files.
enum SyncCommands {
  static let sync = CommandSpec(
    "sync", summary: "Sync the current device (or --device NAME): pull what others pushed, merge, push its changes.",
    options: [.value("device", "the device to sync", completion: .devices)],
    details: [
      "Duplicates of unique records (two \"Produce\" categories) are merged on arrival; recipes with one title are reported by `recipe duplicates`.",
      "An offline device refuses to sync; its changes wait until `device online`.",
    ],
    examples: ["sync", "sync --device phone"]
  ) { invocation, session in
    let device = try target(invocation, session)
    let report = try run(device, invocation, session)
    return CommandResult(
      .message(summary(device.name, report)), .data(key: "sync", .object(fields(device.name, report).map { .init($0.key, $0.value) })))
  }

  static let syncAll = CommandSpec(
    "sync all", summary: "Sync every online device, round after round, until nothing moves.",
    options: [.value("rounds", "the most rounds to run (default 8)", .integer, range: .from(1, to: 100))],
    examples: ["sync all"]
  ) { invocation, session in
    let maxRounds = invocation.integer("rounds") ?? 8
    let online = session.devices.filter { !session.sync.isOffline($0) }
    guard !online.isEmpty else { throw invocation.failure("every device is offline; bring one back with: device online NAME") }
    var totals: [String: SyncEngine.Report] = [:]
    var rounds = 0, settled = false
    while rounds < maxRounds && !settled {
      rounds += 1
      var moved = 0
      for device in online {
        let report = try run(device, invocation, session)
        totals[device.name, default: SyncEngine.Report()].add(report)
        moved += report.exported + report.merges
      }
      settled = moved == 0
    }
    let rows: [[JSONValue]] = online.map { device in
      let report = totals[device.name] ?? SyncEngine.Report()
      return [
        .string(device.name), .int(report.imported), .int(report.exported), .int(report.merges), .int(report.conflicts),
        .int(report.errors),
      ]
    }
    let offline = session.devices.filter { session.sync.isOffline($0) }.map(\.name)
    var parts: [CommandResult.Part] = [
      .message(
        settled ? "synced \(online.count) device(s) in \(rounds) round(s)" : "stopped after \(rounds) round(s) with changes still moving"),
      .table(
        Table(
          key: "devices",
          columns: [
            Table.Column("device", "DEVICE"), Table.Column("imported", "PULLED", alignRight: true),
            Table.Column("exported", "PUSHED", alignRight: true), Table.Column("merges", "MERGED", alignRight: true),
            Table.Column("conflicts", "CONFLICTS", alignRight: true), Table.Column("errors", "ERRORS", alignRight: true),
          ],
          rows: rows, emptyText: "no devices")),
      .data(key: "settled", .bool(settled)),
    ]
    if !offline.isEmpty { parts.append(.message("offline, not synced: \(offline.joined(separator: ", "))")) }
    return CommandResult(parts: parts)
  }

  static let status = CommandSpec(
    "sync status",
    summary:
      "Each device's sync state and totals, whether it is live (subscribed, polling or off) and its lag, the cloud's devices, which device made the most deletes in the last day (a hint for a device that deletes what it should not), and the last sync events.",
    options: [
      .value("events", "how many recent events to show (default 10)", .integer, range: .from(0, to: Double(SyncMonitor.eventLimit)))
    ],
    examples: ["sync status", "sync status --events 50 --json"]
  ) { invocation, session in
    let eventLimit = invocation.integer("events") ?? 10
    var rows: [[JSONValue]] = []
    var notices: [String] = []
    var events: [(device: String, event: SyncMonitor.Event)] = []
    var asideByDevice: [(device: String, aside: [SetAsideChange])] = []
    var unshownByDevice: [(device: String, records: [UnshownRecord])] = []
    var live: [JSONValue] = []
    var monitors: [JSONValue] = []
    var deletesByDevice: [(device: String, counts: [(device: String, deletes: Int)])] = []
    let deviceNames = try HistoryCommands.deviceNames(session)
    for device in session.devices {
      // The device's monitor (the one its syncs and live sync report to) gives the state,
      // the last success and error, the totals and the events.
      let status = session.sync.monitor(for: device, clock: session.now).status
      monitors.append([
        "device": .string(device.name), "state": .string(status.state.rawValue),
        "lastSuccess": status.lastSuccess.map { .string($0.formatted(.iso8601)) } ?? .null,
        "lastError": status.lastError.map { .string($0) } ?? .null, "pendingChanges": .int(status.pendingChanges),
        "setAsideChanges": .int(status.setAsideChanges),
      ])
      let engine = session.cloud(for: device).map { SyncEngine(store: device.store, cloud: $0, deviceName: device.name) }
      let pending = try engine?.pendingChangeCount() ?? 0
      let held = try engine?.heldBatches() ?? []
      let aside = try engine?.setAsideChanges() ?? []
      let dropped = try engine?.droppedSetAsideCount() ?? 0
      if !aside.isEmpty || dropped > 0 {
        let waiting = aside.filter { $0.waitsUntil != nil }.count
        var text = "\(device.name) set aside \(aside.count + Int(dropped)) change(s) from other devices that break the sync rules"
        if waiting > 0 { text += " (\(waiting) wait for this device's clock to reach their stamps: check the writing device's clock)" }
        text += "; everything else applied:"
        notices.append(text)
        let shown = aside.prefix(5)
        notices += shown.map { "  \($0.summary)" }
        if aside.count > shown.count { notices.append("  … and \(aside.count - shown.count) more (sync status --json lists every one)") }
      }
      asideByDevice.append((device.name, aside))
      if let error = status.lastError {
        let since = status.lastSuccess.map { "; last success \($0.formatted(.iso8601))" } ?? "; no sync has succeeded yet"
        notices.append("\(device.name)'s last sync failed (\(status.state.rawValue)): \(error)\(since)")
      }
      if let offset = try engine?.clockOffset(), abs(offset) >= 1 {
        notices.append(
          "\(device.name)'s clock is \(Self.span(abs(offset))) \(offset > 0 ? "behind" : "ahead of") the household's time authority"
            + " (the sync server's clock); its writes are stamped on the authority's time")
      }
      let unshown = try engine?.unshownRecords() ?? []
      if !unshown.isEmpty {
        notices.append("\(device.name) does not show \(unshown.count) record(s) whose synced values break today's rules:")
        notices += unshown.prefix(5).map { "  \($0.kind.rawValue) \($0.id.lowercaseText): \($0.reason)" }
        if unshown.count > 5 { notices.append("  … and \(unshown.count - 5) more (sync status --json lists every one)") }
      }
      unshownByDevice.append((device.name, unshown))
      if !held.isEmpty {
        let versions = Set(held.map(\.schemaVersion)).sorted().map { "v\($0)" }.joined(separator: ", ")
        notices.append(
          "\(device.name) keeps \(held.count) batch(es) from a newer schema (\(versions)) unread: update Forager on this device to apply them"
        )
      }
      let deletes = try SyncDeleteHint.counts(device, session, names: deviceNames)
      if let hint = SyncDeleteHint.line(device, deletes) { notices.append(hint) }
      deletesByDevice.append((device.name, deletes))
      rows.append([
        .string(device.name), .string(status.state.rawValue), .int(pending), .int(held.count),
        .int(aside.count + Int(dropped)), .int(status.syncs), .int(status.imports), .int(status.exports), .int(status.conflicts),
        .int(status.merges),
        .int(status.errors), .string(status.lastSync.map { $0.formatted(.iso8601) } ?? "never"),
        .string(LiveSyncDescription.channel(session.liveSync(for: device)?.status.mode)),
        LiveSyncDescription.lag(session.liveSync(for: device)).map { .int($0) } ?? .null,
      ])
      if session.isLive(device) { notices.append(LiveSyncDescription.line(device, session)) }
      live.append(.object(LiveSyncDescription.fields(device, session)))
      events += status.events.map { (device.name, $0) }
    }
    let recent = events.sorted { $0.event.date < $1.event.date }.suffix(eventLimit)
    var parts: [CommandResult.Part] = [
      .table(
        Table(
          key: "devices",
          columns: [
            Table.Column("device", "DEVICE"), Table.Column("state", "STATE"), Table.Column("pending", "PENDING", alignRight: true),
            Table.Column("held", "HELD", alignRight: true), Table.Column("setAside", "ASIDE", alignRight: true),
            Table.Column("syncs", "SYNCS", alignRight: true), Table.Column("imports", "IMPORTS", alignRight: true),
            Table.Column("exports", "EXPORTS", alignRight: true), Table.Column("conflicts", "CONFLICTS", alignRight: true),
            Table.Column("merges", "MERGES", alignRight: true), Table.Column("errors", "ERRORS", alignRight: true),
            Table.Column("lastSync", "LAST SYNC"), Table.Column("live", "LIVE"), Table.Column("lag", "LAG", alignRight: true),
          ],
          rows: rows, emptyText: "no devices"))
    ]
    parts += notices.map { .message($0) }
    parts.append(.data(key: "live", .array(live)))
    parts.append(.data(key: "monitor", .array(monitors)))
    parts.append(
      .data(
        key: "setAside",
        .array(
          asideByDevice.flatMap { device, aside in
            aside.map { item -> JSONValue in
              [
                "device": .string(device), "sequence": .int(Int(item.sequence)), "index": item.index.map { .int($0) } ?? .null,
                "batch": .string(item.batchID), "replica": .string(item.replica), "kind": item.kind.map { .string($0) } ?? .null,
                "id": item.id.map { .string($0.uuidString.lowercased()) } ?? .null, "field": item.field.map { .string($0) } ?? .null,
                "code": .string(item.code), "reason": .string(item.reason), "waiting": .bool(item.waitsUntil != nil),
              ]
            }
          })))
    parts.append(.data(key: "deletes", SyncDeleteHint.json(deletesByDevice)))
    parts.append(
      .data(
        key: "unshown",
        .array(
          unshownByDevice.flatMap { device, records in
            records.map { record -> JSONValue in
              [
                "device": .string(device), "kind": .string(record.kind.rawValue),
                "id": .string(record.id.lowercaseText), "reason": .string(record.reason),
              ]
            }
          })))
    if let cloud = session.cloud(for: session.current) {
      // A cloud that cannot be reached is said so: the status (and its last error) is what
      // the person needs then.
      do {
        let registered = try cloud.devices()
        parts.append(
          .fields(
            key: "cloud",
            [
              .init("location", label: "cloud", .string(cloud.location)),
              .init("batches", label: "batches", .int(Int(try cloud.latestSequence()))),
              .init(
                "devices", label: "registered devices",
                .array(registered.map { .string("\($0.name) (replica \($0.replicaID.prefix(8)), schema v\($0.schemaVersion))") })),
            ]))
      } catch let error as CloudError {
        parts.append(.message("cloud \(cloud.location) cannot be read now: \(error)"))
      }
    } else {
      parts.append(.message(CloudCommands.missing(for: session.current, session)))
    }
    parts.append(
      .table(
        Table(
          key: "events",
          columns: [
            Table.Column("date", "WHEN"), Table.Column("device", "DEVICE"), Table.Column("kind", "EVENT"),
            Table.Column("detail", "DETAIL"),
          ],
          rows: recent.map {
            [.string($0.event.date.formatted(.iso8601)), .string($0.device), .string($0.event.kind.rawValue), .string($0.event.detail)]
          },
          emptyText: "no sync events yet")))
    return CommandResult(parts: parts)
  }

  // MARK: Helpers

  private static func target(_ invocation: Invocation, _ session: Session) throws(ScriptError) -> Device {
    guard let name = invocation.option("device") else { return session.current }
    guard let device = session.device(named: name) else {
      throw invocation.failure(
        "no device named '\(name)' (devices: \(session.devices.map(\.name).joined(separator: ", ")))", argument: "--device")
    }
    return device
  }

  /// Syncs one device, with the checks every sync command shares.
  private static func run(_ device: Device, _ invocation: Invocation, _ session: Session) throws -> SyncEngine.Report {
    if session.storeOpened != nil {
      throw invocation.failure("sync cannot run inside an --atomic script: it commits as it goes; run the script without --atomic")
    }
    if session.devices.contains(where: { $0.library.isInTransaction }) {
      throw invocation.failure("sync cannot run inside another command's transaction (as in `expect fails`): it commits as it goes")
    }
    guard let cloud = session.cloud(for: device) else { throw invocation.failure(CloudCommands.missing(for: device, session)) }
    if session.sync.isOffline(device) {
      let pending = (try? SyncEngine(store: device.store, cloud: cloud, deviceName: device.name).pendingChangeCount()) ?? 0
      throw invocation.failure(
        "device '\(device.name)' is offline (\(pending) change(s) waiting); bring it back with: device online \(Lexer.quote(device.name))")
    }
    let engine = SyncEngine(
      store: device.store, cloud: cloud, deviceName: device.name, monitor: session.sync.monitor(for: device, clock: session.now))
    do {
      return try engine.sync()
    } catch {
      throw invocation.failure("device '\(device.name)': \(error)")
    }
  }

  /// A span of time as a person reads it: "365 d 4 h", "3 h 12 min", "4 min 10 s", "12 s".
  static func span(_ seconds: Double) -> String {
    let whole = Int(min(seconds, 1e12).rounded())
    let (days, hours, minutes, rest) = (whole / 86_400, whole % 86_400 / 3_600, whole % 3_600 / 60, whole % 60)
    if days > 0 { return "\(days) d \(hours) h" }
    if hours > 0 { return "\(hours) h \(minutes) min" }
    if minutes > 0 { return "\(minutes) min \(rest) s" }
    return "\(rest) s"
  }

  private static func summary(_ name: String, _ report: SyncEngine.Report) -> String {
    var text = "synced '\(name)': pulled \(report.imported), pushed \(report.exported)"
    if report.merges > 0 { text += ", merged \(report.merges) duplicate(s)" }
    if report.conflicts > 0 { text += ", \(report.conflicts) conflict(s) resolved" }
    if report.errors > 0 { text += ", \(report.errors) error(s) (see sync status)" }
    if report.held > 0 { text += ", kept \(report.held) batch(es) from a newer schema unread (update Forager to apply them)" }
    if report.setAside > 0 { text += ", set aside \(report.setAside) change(s) that break the sync rules (see sync status)" }
    return text
  }

  private static func fields(_ name: String, _ report: SyncEngine.Report) -> [CommandResult.Field] {
    [
      .init("device", .string(name)), .init("imported", .int(report.imported)), .init("exported", .int(report.exported)),
      .init("merges", .int(report.merges)), .init("conflicts", .int(report.conflicts)), .init("errors", .int(report.errors)),
      .init("held", .int(report.held)), .init("setAside", .int(report.setAside)),
      .init("pulledBatches", .int(report.pulledBatches)), .init("pushedBatches", .int(report.pushedBatches)),
    ]
  }
}

extension SyncEngine.Report {
  mutating func add(_ other: SyncEngine.Report) {
    pulledBatches += other.pulledBatches
    imported += other.imported
    pushedBatches += other.pushedBatches
    exported += other.exported
    conflicts += other.conflicts
    merges += other.merges
    errors += other.errors
    held += other.held
    setAside += other.setAside
  }
}
