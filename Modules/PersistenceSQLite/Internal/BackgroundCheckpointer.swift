import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints the WAL on a connection of its own, on a background queue, once a commit
/// leaves it past a number of pages: the writer goes on with its next transaction instead
/// of copying the WAL into the file and syncing both itself.
///
/// SQLite's own automatic checkpoint runs inside the commit that crosses the limit, on the
/// committing thread: a sync page of 30k records then waited ≈ 0.1–0.3 s for a checkpoint
/// of the pages before it. A passive checkpoint on another connection copies what is
/// committed while the writer writes on; it never waits for a lock and never blocks the
/// writer, and the WAL restarts from its beginning at the first write after a checkpoint
/// that copied everything (Docs/ARCHITECTURE.md, "Storage").
final class BackgroundCheckpointer: Sendable {
  private let path: String
  private let configuration: Configuration
  /// WAL pages past which a commit starts a checkpoint.
  let pages: Int32
  private let queue = DispatchQueue(label: "forager.sqlite.checkpoint")
  private struct State {
    var running = false
    /// The checkpointing connection, opened by the first checkpoint.
    var connection: DatabaseQueue?
    var closed = false
  }
  private let state = Mutex(State())

  init(path: String, configuration: Configuration, pages: Int) {
    self.path = path
    self.configuration = configuration
    self.pages = Int32(clamping: pages)
  }

  /// Replaces SQLite's automatic checkpoint on the writer `db` with this one. The hook holds
  /// no reference: the store that owns this object makes every commit on `db`.
  func install(on db: Database) {
    let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { context, _, _, pages in
      if let context { Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(walPages: pages) }
      return SQLITE_OK
    }
    sqlite3_wal_hook(db.sqliteConnection, hook, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Called on the writer's thread after each commit, with the pages the WAL holds.
  func committed(walPages: Int32) {
    guard walPages >= pages else { return }
    let start = state.withLock { state -> Bool in
      guard !state.running, !state.closed else { return false }
      state.running = true
      return true
    }
    guard start else { return }
    queue.async { self.checkpoint() }
  }

  private func checkpoint() {
    defer { state.withLock { $0.running = false } }
    do {
      let connection = try state.withLock { state -> DatabaseQueue? in
        guard !state.closed else { return nil }
        if state.connection == nil { state.connection = try DatabaseQueue(path: path, configuration: configuration) }
        return state.connection
      }
      // A failed checkpoint (another process's checkpoint holds the lock) changes nothing;
      // the next commit past the limit starts another.
      _ = try connection?.writeWithoutTransaction { try $0.checkpoint(.passive) }
    } catch {}
  }

  /// Returns once the checkpoint started so far, if any, has ended.
  func waitWhileRunning() { queue.sync {} }

  /// Waits for a running checkpoint and closes the connection; no checkpoint starts after.
  func close() throws {
    state.withLock { $0.closed = true }
    queue.sync {}
    let connection = state.withLock { state -> DatabaseQueue? in
      defer { state.connection = nil }
      return state.connection
    }
    try connection?.close()
  }
}
