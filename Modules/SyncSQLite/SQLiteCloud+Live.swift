import Foundation
public import Sync
import Synchronization

extension SQLiteCloud: LiveCloud {
  /// How often a live channel reads the file's newest sequence.
  static let livePollInterval = DispatchTimeInterval.milliseconds(100)

  /// A channel that reads the file's newest sequence every 100 ms (one indexed read) and
  /// announces it when it grew: several processes sharing the file hear each other's
  /// pushes without syncing on a timer.
  public func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel {
    FileLiveChannel(cloud: self, handler: handler)
  }
}

/// Watches a ``SQLiteCloud`` file on a timer of its own (a dispatch queue, not Swift's
/// cooperative pool: the readers of a channel are synchronous threads, a REPL's or a
/// script's, and a channel must be heard while such a thread waits) until closed.
final class FileLiveChannel: LiveChannel, @unchecked Sendable {
  private let queue = DispatchQueue(label: "forager.sqlite-cloud.live")
  private let timer: DispatchSourceTimer
  private let ended = Mutex(false)
  private let handler: @Sendable (LiveSignal) -> Void
  /// The newest sequence announced; read and written on `queue` only.
  private var last: Int64?

  init(cloud: SQLiteCloud, handler: @escaping @Sendable (LiveSignal) -> Void) {
    self.handler = handler
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now(), repeating: SQLiteCloud.livePollInterval)
    timer.setEventHandler { [weak self] in self?.read(cloud) }
    timer.resume()
  }

  /// One reading of the file's newest sequence: the first opens the channel, a later one
  /// past the last announces it.
  private func read(_ cloud: SQLiteCloud) {
    do {
      let latest = try cloud.latestSequence()
      guard let last else {
        self.last = latest
        deliver(.opened(latestSequence: latest, heartbeat: nil))
        return
      }
      if latest > last {
        self.last = latest
        deliver(.announced(latest))
      }
    } catch {
      timer.cancel()
      deliver(.ended("cannot read the cloud file: \(error)"))
    }
  }

  func close() {
    timer.cancel()
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
