import PostgresNIO
import SyncServer

/// How the storage's request calls tell the service what a database error means
/// (``StorageError``): the request's data refused, the database failing one call, or the
/// database away. PostgreSQL says which in the error's SQLSTATE; postgres-nio gives it as
/// `PSQLError.serverInfo[.sqlState]`, and an error without server info is one the client
/// raised itself (a connection that failed or closed, a closed pool).
///
/// | SQLSTATE class | Meaning | Classified |
/// |---|---|---|
/// | 22 data exception (a value out of range, invalid text) | the request's data | `refused(.value)` |
/// | 23 integrity constraint violation | the request's data | `refused(.constraint)` |
/// | 54 program limit exceeded (an index row too large) | the request's data | `refused(.size)` |
/// | 40 transaction rollback (deadlock, serialization) | this call, may pass again | `failed(transient: true)` |
/// | 08 connection, 53 resources, 57 operator intervention, 58 system, XX internal | the database | `away` |
/// | anything else the server answered (42 a fault of the SQL, …) | this call | `failed(transient: false)` |
/// | no server info (connection failed or closed, pool closed) | the database | `away` |
enum ErrorClassification {
  /// Runs a request's storage call, its database errors classified; a ``ServerError`` (a
  /// rule's refusal) and cancellation pass unchanged.
  static func classified<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw classify(error)
    }
  }

  static func classify(_ error: any Error) -> any Error {
    switch error {
    case is ServerError, is StorageError, is CancellationError: return error
    case let error as PostgresTransactionError:
      // The first error of the transaction says what went wrong; a failed rollback means the
      // connection is in doubt.
      if let rollback = error.rollbackError { return away(rollback) }
      for inner in [error.beginError, error.closureError, error.commitError] {
        if let inner { return classify(inner) }
      }
      return StorageError.failed(String(describing: error), transient: false)
    case let error as PSQLError: return classify(error)
    case is PostgresDecodingError: return StorageError.failed(String(describing: error), transient: false)
    default: return error
    }
  }

  static func classify(_ error: PSQLError) -> StorageError {
    guard let info = error.serverInfo, let state = info[.sqlState], state.count == 5 else { return away(error) }
    let reason = info[.message] ?? state
    let subject = info[.constraintName] ?? info[.columnName]
    switch state.prefix(2) {
    case "22": return .refused(.init(.value, reason: reason, subject: subject))
    case "23": return .refused(.init(.constraint, reason: reason, subject: subject))
    case "54": return .refused(.init(.size, reason: reason, subject: subject))
    case "40": return .failed("\(state) \(reason)", transient: true)
    case "08", "53", "57", "58", "XX": return .away("\(state) \(reason)")
    default: return .failed("\(state) \(reason)", transient: false)
    }
  }

  private static func away(_ error: any Error) -> StorageError {
    if let error = error as? PSQLError {
      return .away(error.serverInfo?[.message] ?? String(describing: error.code))
    }
    return .away(String(describing: error))
  }
}
