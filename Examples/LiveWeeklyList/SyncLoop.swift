import Foundation
import Sync
import Synchronization

/// Keeps the device live on a thread of its own: `LiveSync` decides when to sync (the
/// server announced a change, a local write waits to go out, a poll is due) and syncs in
/// `runDue()`, which blocks while it talks to the server — so it runs here, not on the
/// tasks that show the list and read commands.
final class SyncLoop: Sendable {
  private let live: LiveSync
  private let finishing = Mutex(false)

  init(engine: SyncEngine) {
    live = LiveSync(engine: engine)
  }

  /// Runs until ``finish()``; then syncs once more, so what was written here goes out.
  func run() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread { [self] in
        live.start()
        while !finishing.withLock({ $0 }) {
          live.wait(timeout: .milliseconds(200))
          do {
            try live.runDue()
          } catch {
            // The monitor keeps the error and shows it; live sync tries again after a backoff.
          }
          live.engine.monitor.setLive(live.status.mode == .live)
        }
        live.stop()
        _ = try? live.engine.sync()
        done.resume()
      }
    }
  }

  /// Something was written here: push it shortly (a burst of writes goes out together).
  func noteLocalWrite() { live.noteLocalWrite() }

  /// Ends ``run()`` after its last sync.
  func finish() { finishing.withLock { $0 = true } }
}
