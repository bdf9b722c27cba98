import Foundation
import Repositories
public import Sync

/// The session's live devices (`sync live on`): one ``LiveSync`` per device, driven from the
/// thread that runs the commands — the REPL polls ``Session/liveWakeDescriptors`` beside
/// its terminal and calls ``Session/runLive()``; `sync wait` runs it while it waits.
struct SessionLive {
  struct Driver {
    let live: LiveSync
    /// The store and cloud it was started on: `open` or `cloud open` replaces them.
    let store: ObjectIdentifier
    let cloud: ObjectIdentifier
    /// Whether the person at the prompt was told that live sync is down (and not yet
    /// that it is back): an outage is told once, however often the retries fail.
    var toldDown = false
    /// The channel's mode after the last run, to see it open again.
    var mode: LiveSync.Mode?
  }

  var drivers: [String: Driver] = [:]

  func driver(for device: Device) -> Driver? { drivers[device.name.lowercased()] }
}

extension Session {
  /// Whether `device` is live (`sync live on`).
  public func isLive(_ device: Device) -> Bool { live.driver(for: device) != nil }

  /// The driver of a live device, for `sync status` and `sync wait`.
  public func liveSync(for device: Device) -> LiveSync? { live.driver(for: device)?.live }

  /// Makes `device` live on its cloud; the first sync runs at the next ``runLive()``.
  /// - Throws: a reason when the device has no cloud.
  func startLive(_ device: Device) throws(LiveStartError) -> LiveSync {
    if let running = live.driver(for: device) { return running.live }
    guard let cloud = cloud(for: device) else { throw LiveStartError(reason: CloudCommands.missing(for: device, self)) }
    let engine = SyncEngine(
      store: device.store, cloud: cloud, deviceName: device.name, monitor: sync.monitor(for: device, clock: now))
    let driver = LiveSync(engine: engine, options: liveOptions, now: liveClock)
    live.drivers[device.name.lowercased()] = SessionLive.Driver(
      live: driver, store: ObjectIdentifier(device.store), cloud: ObjectIdentifier(cloud))
    driver.start()
    return driver
  }

  /// Closes `device`'s channel; returns whether it was live.
  @discardableResult
  func stopLive(_ device: Device) -> Bool {
    guard let driver = live.drivers.removeValue(forKey: device.name.lowercased()) else { return false }
    driver.live.stop()
    driver.live.engine.monitor.setLive(false)
    return true
  }

  /// Closes every channel (the session ends, or the cloud changes).
  func stopAllLive() {
    for driver in live.drivers.values {
      driver.live.stop()
      driver.live.engine.monitor.setLive(false)
    }
    live.drivers = [:]
  }

  /// Descriptors that become readable when a live device has work: poll them beside the
  /// terminal and call ``runLive()`` when one is (or ``liveTimeoutMilliseconds`` passed).
  public var liveWakeDescriptors: [Int32] { live.drivers.values.map(\.live.wakeDescriptor) }

  /// How long the front end may wait before ``runLive()`` has timed work (a debounced
  /// write, a poll, a reopen); -1 when no device is live.
  public var liveTimeoutMilliseconds: Int32 {
    guard !live.drivers.isEmpty else { return -1 }
    let at = liveClock()
    let next = live.drivers.values.compactMap(\.live.nextDue).min()
    guard let next else { return 1_000 }
    return Int32(max(0, min(1_000, (next.timeIntervalSince(at) * 1_000).rounded(.up))))
  }

  /// A local write was made: every live device with changes waiting pushes them after the
  /// debounce. Called after each command that succeeds.
  func noteLiveWrites() {
    for (key, driver) in live.drivers {
      guard let device = devices.first(where: { $0.name.lowercased() == key }), !device.library.isInTransaction else { continue }
      if (try? driver.live.engine.hasPendingChanges()) == true { driver.live.noteLocalWrite() }
    }
  }

  /// Runs what is due on every live device (announced changes, debounced writes, polls)
  /// and returns one-line notices for the person at the prompt: changes that arrived, and
  /// once per outage that live sync is down (a sync failed, or the channel dropped) and
  /// once that it is back. When the channel opens again, changes written while it was
  /// closed go out after the debounce, not at the next poll. An offline device, or one
  /// inside a transaction, waits.
  public func runLive() -> [String] {
    var notices: [String] = []
    let named = live.drivers.count > 1
    for key in live.drivers.keys.sorted() {
      guard var driver = live.drivers[key], let device = devices.first(where: { $0.name.lowercased() == key }) else { continue }
      guard !sync.isOffline(device), !device.library.isInTransaction, storeOpened == nil else { continue }
      if ObjectIdentifier(device.store) != driver.store || cloud(for: device).map({ ObjectIdentifier($0) }) != driver.cloud {
        // `open` or `cloud open` replaced what the driver was started on: start it again.
        stopLive(device)
        guard (try? startLive(device)) != nil, let restarted = live.drivers[key] else {
          notices.append("· \(device.name): live sync stopped: \(CloudCommands.missing(for: device, self))")
          continue
        }
        driver = restarted
      }
      let prefix = named ? "· \(device.name): " : "· "
      var failure: String?
      do {
        if let report = try driver.live.runDue(), report.imported > 0 {
          notices.append("\(prefix)\(report.imported) change\(report.imported == 1 ? "" : "s") from the household")
        }
      } catch {
        failure = Interpreter.reason(for: error)
      }
      let status = driver.live.status
      driver.live.engine.monitor.setLive(status.mode == .live)
      if status.mode == .live, driver.mode != .live, (try? driver.live.engine.hasPendingChanges()) == true {
        // The channel opened again: what was written while it was closed goes out now.
        driver.live.noteLocalWrite()
      }
      if let notice = Self.outageNotice(&driver, failure: failure, status: status) { notices.append(prefix + notice) }
      driver.mode = status.mode
      live.drivers[key] = driver
    }
    return notices
  }
}

extension Session {
  /// "live sync is down: …" when a sync failed or the channel dropped and the person was
  /// not told yet; "live sync is back" when the channel is open again and syncs succeed.
  static func outageNotice(_ driver: inout SessionLive.Driver, failure: String?, status: LiveSync.Status) -> String? {
    if let failure {
      guard !driver.toldDown else { return nil }
      driver.toldDown = true
      return "live sync is down: \(failure); changes made here wait and go out when it is back"
    }
    if status.mode == .polling, let drop = status.lastDrop {
      guard !driver.toldDown else { return nil }
      driver.toldDown = true
      return "live sync is down: \(drop); syncing by polling until the live channel opens again"
    }
    guard status.mode == .live, driver.toldDown else { return nil }
    driver.toldDown = false
    return "live sync is back"
  }
}

/// Why a device cannot go live.
struct LiveStartError: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}
