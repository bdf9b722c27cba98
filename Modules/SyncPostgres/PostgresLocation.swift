import Foundation
public import PostgresNIO

/// Where the database is: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]`
/// URL (the `DATABASE_URL` convention), read into postgres-nio's configuration. TLS to
/// PostgreSQL follows `sslmode` as libpq reads it (``SSLMode``); without it TLS is off, for
/// a database on loopback (Docs/SERVER.md).
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://forager@db.internal:5432/forager?sslmode=verify-full")
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  public let host: String
  public let port: Int
  public let username: String
  public let password: String?
  public let database: String
  public let sslMode: SSLMode
  /// For `verify-ca` and `verify-full`: a PEM file of the certificates to trust (the URL's
  /// `sslrootcert`); nil: the system's.
  public let sslRootCertificate: String?

  /// How the connection to PostgreSQL uses TLS: libpq's `sslmode` values.
  public enum SSLMode: String, Sendable, Hashable, CaseIterable {
    /// No TLS.
    case disable
    /// TLS when the server offers it, without checking its certificate (`allow` and `prefer`).
    case prefer
    /// TLS or no connection, without checking the certificate.
    case require
    /// TLS, with a certificate signed by a trusted authority, for any host name.
    case verifyCA = "verify-ca"
    /// TLS, with a trusted certificate for the URL's host.
    case verifyFull = "verify-full"
  }

  public init(
    host: String, port: Int = 5432, username: String, password: String? = nil, database: String, sslMode: SSLMode = .disable,
    sslRootCertificate: String? = nil
  ) {
    self.host = host
    self.port = port
    self.username = username
    self.password = password
    self.database = database
    self.sslMode = sslMode
    self.sslRootCertificate = sslRootCertificate
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
    let path = hostPart[hostPart.index(after: slash)...].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let database = path.first.map(String.init) ?? ""
    guard !database.isEmpty else { throw .badURL("it names no database (…/DATABASE)") }
    var sslMode = SSLMode.disable
    var rootCertificate: String?
    for parameter in (path.count > 1 ? path[1] : "").split(separator: "&") {
      let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let value = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
      switch pair[0] {
      case "sslmode":
        guard let mode = value == "allow" ? .prefer : SSLMode(rawValue: value) else {
          throw .badURL("sslmode '\(value)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        sslMode = mode
      case "sslrootcert": rootCertificate = value
      default: throw .badURL("the parameter '\(pair[0])' is not one this server reads (sslmode, sslrootcert)")
      }
    }
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
      password: user.count > 1 ? (String(user[1]).removingPercentEncoding ?? String(user[1])) : nil, database: database,
      sslMode: sslMode, sslRootCertificate: rootCertificate)
  }

  /// The URL without its password, for messages and logs.
  public var description: String {
    "postgres://\(username)@\(host):\(port)/\(database)" + (sslMode == .disable ? "" : "?sslmode=\(sslMode.rawValue)")
  }

  /// postgres-nio's client configuration.
  public var configuration: PostgresClient.Configuration {
    var configuration = PostgresClient.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: tls)
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }

  /// Opens one connection to the database and closes it: what stops it (a refused
  /// connection, a wrong password, TLS the server will not speak) is thrown at once,
  /// where a client's pool keeps trying in the background. `serve` calls it while it waits
  /// for its database.
  public func connectOnce(logger: Logger) async throws {
    var connectionTLS = PostgresConnection.Configuration.TLS.disable
    if let (configuration, required) = tlsSettings {
      let context = try NIOSSLContext(configuration: configuration)
      connectionTLS = required ? .require(context) : .prefer(context)
    }
    var configuration = PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: connectionTLS)
    configuration.options.connectTimeout = .seconds(5)
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    try await connection.close()
  }

  /// TLS as ``sslMode`` asks.
  var tls: PostgresClient.Configuration.TLS {
    guard let (configuration, required) = tlsSettings else { return .disable }
    return required ? .require(configuration) : .prefer(configuration)
  }

  /// The TLS configuration ``sslMode`` asks for and whether a connection without TLS is
  /// refused; nil: no TLS.
  private var tlsSettings: (TLSConfiguration, required: Bool)? {
    var tls = TLSConfiguration.makeClientConfiguration()
    switch sslMode {
    case .disable: return nil
    case .prefer, .require:
      tls.certificateVerification = .none
      return (tls, sslMode == .require)
    case .verifyCA, .verifyFull:
      tls.certificateVerification = sslMode == .verifyCA ? .noHostnameVerification : .fullVerification
      if let sslRootCertificate { tls.trustRoots = .file(sslRootCertificate) }
      return (tls, true)
    }
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
