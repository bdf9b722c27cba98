import Foundation
import Sync

/// What the session knows about its devices' syncing: which are offline and each one's
/// monitor (kept for the whole session, so `sync status` shows totals and last events).
struct SessionSync {
  private var offline: Set<String> = []
  private var monitors: [String: SyncMonitor] = [:]

  func isOffline(_ device: Device) -> Bool { offline.contains(device.name.lowercased()) }

  mutating func setOffline(_ device: Device, _ value: Bool) {
    if value { offline.insert(device.name.lowercased()) } else { offline.remove(device.name.lowercased()) }
    monitors[device.name.lowercased()]?.setOffline(value)
  }

  mutating func monitor(for device: Device, clock: @escaping @Sendable () -> Date) -> SyncMonitor {
    if let monitor = monitors[device.name.lowercased()] { return monitor }
    let monitor = SyncMonitor(clock: clock)
    monitor.setOffline(isOffline(device))
    monitors[device.name.lowercased()] = monitor
    return monitor
  }

  func existingMonitor(for device: Device) -> SyncMonitor? { monitors[device.name.lowercased()] }
}
