import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints the WAL once a commit leaves it past a number of pages: after a large
/// transaction on a connection of its own, on a background queue, so the writer goes on
/// with its next transaction; after a small one inside the commit, as SQLite's automatic
/// checkpoint does.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses the limit: a sync page
/// of 30k records then waited ≈ 0.1–0.3 s for a checkpoint of the pages before it. A passive
/// checkpoint on another connection copies what is committed while the writer writes on.
/// But the WAL only starts again from its beginning when a write begins after a checkpoint
/// that copied all of it, and a writer making small commits one after another never leaves
/// a background checkpoint that moment: it started another after nearly every commit (249
/// during the recipe benchmark, 12 % slower) while the WAL only grew. So small commits
/// checkpoint inside the commit, which copies everything while the writer waits, and so
/// does any commit once the WAL has reached four times the limit (Docs/ARCHITECTURE.md,
/// "Durability"; Docs/PERFORMANCE.md, "Hand-written code and its measured reasons").
final class BackgroundCheckpointer: Sendable {
  private let path: String
  private let configuration: Configuration
  /// WAL pages past which a commit starts a checkpoint.
  let pages: Int32
  private let queue = DispatchQueue(label: "forager.sqlite.checkpoint")
  private struct State {
    var running = false
    /// The WAL's pages after the commit before, to tell how many a commit added.
    var walPages: Int32 = 0
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
    let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { context, db, _, pages in
      guard let context else { return SQLITE_OK }
      let checkpointer = Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
      switch checkpointer.committed(walPages: pages) {
      case .none: break
      case .inCommit: sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      case .beside: checkpointer.queue.async { checkpointer.checkpoint() }
      }
      return SQLITE_OK
    }
    sqlite3_wal_hook(db.sqliteConnection, hook, Unmanaged.passUnretained(self).toOpaque())
  }

  enum Checkpoint {
    case none
    /// On the writer, before its commit returns.
    case inCommit
    /// On the checkpointing connection, beside the writer.
    case beside
  }

  /// What to do after a commit that leaves the WAL with `walPages` pages. A commit that
  /// added a quarter of the limit or more is a large transaction.
  func committed(walPages: Int32) -> Checkpoint {
    state.withLock { state in
      // Fewer pages than after the commit before: the WAL started again.
      let added = walPages >= state.walPages ? walPages - state.walPages : walPages
      state.walPages = walPages
      guard walPages >= pages, !state.running, !state.closed else { return .none }
      guard added >= pages / 4, walPages < 4 * pages else { return .inCommit }
      state.running = true
      return .beside
    }
  }

  fileprivate func checkpoint() {
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
