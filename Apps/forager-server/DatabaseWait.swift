import Foundation
import Logging
import PostgresNIO
import SyncPostgres
import SyncServer

/// How `serve` waits for its database at start-up: each attempt to reach it (and read its
/// schema) gets a few seconds, a failed one is reported on standard error and tried again,
/// until `limit` has passed; then `serve` fails with the last reason.
struct DatabaseWait {
  let location: PostgresLocation
  let limit: Duration
  var attemptTimeout: Duration = .seconds(5)
  var pause: Duration = .seconds(2)

  /// Runs `attempt` until it succeeds or `limit` has passed.
  /// - Throws: the attempt's own error when it is not about reaching the database (a
  ///   missing or newer schema), or a `CommandFailure` naming the database and the last
  ///   reason once `limit` has passed.
  func run(_ attempt: @escaping @Sendable () async throws -> Void) async throws {
    let start = ContinuousClock.now
    var tries = 0
    while true {
      tries += 1
      let reason: String
      do {
        // One connection first: it fails at once, with its reason, where the pool would wait.
        try await location.connectOnce(logger: Logger(label: "forager-server"))
        if try await withDeadline(attemptTimeout, attempt) != nil { return }
        reason = "no answer within \(Self.seconds(attemptTimeout)) s"
      } catch let error as PostgresStorageError {
        throw error
      } catch let error as PSQLError {
        reason = Self.describe(error)
      } catch {
        reason = String(describing: report(error))
      }
      let waited = ContinuousClock.now - start
      guard waited + pause < limit else {
        throw CommandFailure(
          "the database \(location) could not be reached in \(tries) attempt(s) over \(Self.seconds(waited)) s "
            + "(\(reason)); is PostgreSQL running there? (--wait-for-database sets how long serve waits)")
      }
      FileHandle.standardError.write(
        Data(
          "forager-server: the database \(location) cannot be reached (\(reason)); trying again in \(Self.seconds(pause)) s (attempt \(tries))\n"
            .utf8))
      try await Task.sleep(for: pause)
    }
  }

  static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }

  /// What stopped a connection, in a few words: the server's message, or the socket's error.
  static func describe(_ error: PSQLError) -> String {
    if let message = error.serverInfo?[.message] { return "the database refused: \(message)" }
    if let underlying = error.underlying as? IOError { return underlying.description }
    if let underlying = error.underlying as? NIOConnectionError, let first = underlying.connectionErrors.first {
      return String(describing: first.error)
    }
    return error.underlying.map { String(describing: $0) } ?? "\(error.code)"
  }
}
