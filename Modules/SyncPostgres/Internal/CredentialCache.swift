import Foundation
import SyncServer
import Synchronization

/// Credentials by token hash, kept only while the storage hears the `forager_credentials`
/// notifications every revocation and minimum-schema change sends (from any process), so a
/// revoked token is refused at once on every server.
///
/// - Empty and unused unless ``PostgresHouseholdStorage/watchCredentialChanges(retryAfter:)``
///   runs and is listening: a storage nobody watches reads every credential from the database.
/// - Cleared by each notification, and when listening starts or stops (a notification
///   missed while the connection was down cannot leave a stale entry behind).
/// - A read that started before a clear is not stored after it (generations), so a lookup
///   racing a revocation cannot put the revoked token's old credential back.
/// - Entries older than ``maximumAge`` are read again; at ``maximumEntries`` the cache starts
///   over. Unknown tokens are never cached.
final class CredentialCache: Sendable {
  static let maximumAge: Duration = .seconds(60)
  static let maximumEntries = 10_000

  private struct Entry {
    let credential: Credential
    let storedAt: ContinuousClock.Instant
  }

  private struct State {
    var isListening = false
    var generation = 0
    var entries: [Data: Entry] = [:]

    /// Drops every entry, and makes lookups begun before now store nothing.
    mutating func clear() {
      generation += 1
      entries.removeAll(keepingCapacity: true)
    }
  }

  private let state = Mutex(State())

  /// The cached credential of a hash, if the cache is in use and has a fresh one.
  func credential(for hash: Data) -> Credential? {
    state.withLock { state in
      guard state.isListening, let entry = state.entries[hash] else { return nil }
      guard ContinuousClock.now - entry.storedAt < Self.maximumAge else {
        state.entries[hash] = nil
        return nil
      }
      return entry.credential
    }
  }

  /// The generation a lookup starts in; pass it back to ``store(_:for:readIn:)``.
  var generation: Int { state.withLock { $0.generation } }

  /// Keeps a credential read from the database, unless the cache was cleared since the read began.
  func store(_ credential: Credential, for hash: Data, readIn generation: Int) {
    state.withLock { state in
      guard state.isListening, state.generation == generation else { return }
      if state.entries.count >= Self.maximumEntries { state.entries.removeAll(keepingCapacity: true) }
      state.entries[hash] = Entry(credential: credential, storedAt: .now)
    }
  }

  /// Forgets every entry.
  func clear() { state.withLock { $0.clear() } }

  /// Turns the cache on while notifications are heard, off otherwise; clears it either way.
  func setListening(_ listening: Bool) {
    state.withLock { state in
      state.isListening = listening
      state.clear()
    }
  }
}
