import Logging
import PostgresNIO
public import SyncServer

extension PostgresHouseholdStorage {
  /// The notification channel of appended batches (schema step 7): `<household>:<sequence>`.
  static let logChannel = "forager_log"

  /// Listens for appended batches (`forager_log`, notified by a trigger as each batch
  /// commits, through whichever server or tool appended it) and tells `announcer`, so a
  /// push through one server reaches the live subscribers of every other server on the
  /// database. Each time listening (re)starts, the ends of the logs `announcer` has
  /// subscribers for are read again: a notification sent while the connection was down is
  /// not replayed by PostgreSQL. Runs until its task is cancelled, listening again
  /// `retryAfter` after a dropped connection (``CredentialWatcher`` runs it as a service).
  public func watchLogChanges(into announcer: LiveAnnouncer, retryAfter: Duration = .seconds(1)) async {
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: Self.logChannel) { notifications in
            for household in announcer.households {
              announcer.announce(household: household, sequence: try await latestSequence(of: household))
            }
            for try await notification in notifications {
              guard let (household, sequence) = Self.parseLogNotification(notification.payload) else { continue }
              announcer.announce(household: household, sequence: sequence)
            }
          }
        }
      } catch {
        if !Task.isCancelled {
          logger.warning(
            "not listening for appended batches (live subscribers hear this server's pushes only): \(String(describing: error))")
        }
      }
      try? await Task.sleep(for: retryAfter)
    }
  }

  /// `<household>:<sequence>`, both positive; nil for anything else.
  static func parseLogNotification(_ payload: String) -> (Int64, Int64)? {
    let parts = payload.split(separator: ":")
    guard parts.count == 2, let household = Int64(parts[0]), let sequence = Int64(parts[1]), household > 0, sequence > 0 else {
      return nil
    }
    return (household, sequence)
  }
}
