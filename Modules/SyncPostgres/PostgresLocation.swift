import Foundation
public import PostgresNIO

/// Where the database is: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL (the
/// `DATABASE_URL` convention), read into postgres-nio's configuration. TLS is off: the
/// server talks to PostgreSQL on loopback or a private network (Docs/SERVER.md).
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://forager@127.0.0.1:5432/forager")
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  public let host: String
  public let port: Int
  public let username: String
  public let password: String?
  public let database: String

  public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String) {
    self.host = host
    self.port = port
    self.username = username
    self.password = password
    self.database = database
  }

  /// Reads a `postgres://` or `postgresql://` URL.
  /// - Throws: ``PostgresStorageError/badURL(_:)`` naming what is missing (the message
  ///   never repeats a password).
  public init(url: String) throws(PostgresStorageError) {
    let scheme = ["postgres://", "postgresql://"].first { url.hasPrefix($0) }
    guard let scheme else { throw .badURL("it must start with postgres:// or postgresql://") }
    let rest = url.dropFirst(scheme.count)
    guard let at = rest.lastIndex(of: "@") else { throw .badURL("it names no user (postgres://USER@HOST/DATABASE)") }
    let userInfo = rest[..<at]
    let hostPart = rest[rest.index(after: at)...]
    let user = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let name = user.first, !name.isEmpty else { throw .badURL("it names no user") }
    guard let slash = hostPart.firstIndex(of: "/") else { throw .badURL("it names no database (…/DATABASE)") }
    let address = hostPart[..<slash]
    let database = hostPart[hostPart.index(after: slash)...].split(separator: "?").first.map(String.init) ?? ""
    guard !database.isEmpty else { throw .badURL("it names no database (…/DATABASE)") }
    var host = String(address)
    var port = 5432
    if let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") {
      guard let value = Int(address[address.index(after: colon)...]), (1...65_535).contains(value) else {
        throw .badURL("its port is not a number from 1 to 65535")
      }
      port = value
      host = String(address[..<colon])
    }
    guard !host.isEmpty else { throw .badURL("it names no host") }
    self.init(
      host: host, port: port, username: (String(name).removingPercentEncoding ?? String(name)),
      password: user.count > 1 ? (String(user[1]).removingPercentEncoding ?? String(user[1])) : nil, database: database)
  }

  /// The URL without its password, for messages and logs.
  public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

  /// postgres-nio's client configuration.
  public var configuration: PostgresClient.Configuration {
    var configuration = PostgresClient.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: .disable)
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }

  /// Runs `body` with a client to this database running beside it (postgres-nio's
  /// `client.run()` in a task); the client stops when `body` returns or throws.
  ///
  /// ```swift
  /// let version = try await location.withRunningClient { client in try await PostgresSchema.setUp(client, …) }
  /// ```
  public func withRunningClient<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
    let client = PostgresClient(configuration: configuration)
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask {
        await client.run()
        return nil
      }
      defer { group.cancelAll() }
      return try await body(client)
    }
  }
}

/// Why the PostgreSQL storage cannot start or go on.
public enum PostgresStorageError: Error, Sendable, Hashable, CustomStringConvertible {
  case badURL(String)
  case schemaMissing(database: String)
  case schemaNewer(database: String, found: Int, known: Int)
  case schemaOlder(database: String, found: Int, known: Int)

  public var description: String {
    switch self {
    case .badURL(let reason): "the database URL is not usable: \(reason)"
    case .schemaMissing(let database): "\(database) has no Forager schema; run: forager-server setup-db"
    case .schemaNewer(let database, let found, let known):
      "\(database) has Forager schema \(found), newer than this server's \(known); run a newer forager-server"
    case .schemaOlder(let database, let found, let known):
      "\(database) has Forager schema \(found), older than this server's \(known); run: forager-server setup-db"
    }
  }
}
