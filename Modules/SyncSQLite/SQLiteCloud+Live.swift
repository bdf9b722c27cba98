import Foundation
public import Sync
import Synchronization

extension SQLiteCloud: LiveCloud {
  /// How often a live channel reads the file's newest sequence.
  static let livePollInterval: Duration = .milliseconds(100)

  /// A channel that reads the file's newest sequence every 100 ms (one indexed read) and
  /// announces it when it grew: several processes sharing the file hear each other's
  /// pushes without syncing on a timer.
  public func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel {
    FileLiveChannel(cloud: self, handler: handler)
  }
}

/// Watches a ``SQLiteCloud`` file from a task of its own until closed.
final class FileLiveChannel: LiveChannel {
  private let task = Mutex<Task<Void, Never>?>(nil)
  private let ended = Mutex(false)
  private let handler: @Sendable (LiveSignal) -> Void

  init(cloud: SQLiteCloud, handler: @escaping @Sendable (LiveSignal) -> Void) {
    self.handler = handler
    let watching = Task { [weak self] in
      do {
        var last = try cloud.latestSequence()
        self?.deliver(.opened(latestSequence: last, heartbeat: nil))
        while !Task.isCancelled {
          try await Task.sleep(for: SQLiteCloud.livePollInterval)
          let latest = try cloud.latestSequence()
          if latest > last {
            last = latest
            self?.deliver(.announced(latest))
          }
        }
        self?.deliver(.ended("closed"))
      } catch {
        self?.deliver(.ended(Task.isCancelled ? "closed" : "cannot read the cloud file: \(error)"))
      }
    }
    task.withLock { $0 = watching }
  }

  func close() {
    task.withLock { $0 }?.cancel()
    deliver(.ended("closed"))
  }

  private func deliver(_ signal: LiveSignal) {
    ended.withLock { ended in
      guard !ended else { return }
      if case .ended = signal { ended = true }
      handler(signal)
    }
  }
}
