public import Hummingbird
import HummingbirdCore
import NIOCore

extension SyncService {
  /// A Hummingbird application serving the routes on `host:port` (port 0: a free port,
  /// reported to `onRunning`), closing idle connections after
  /// ``ServerConfiguration/idleTimeout`` and holding at most
  /// ``ServerConfiguration/maxConnections`` open. Each connection's pipeline counts it in
  /// `forager_open_connections`, closes it at once when its client address holds
  /// ``ServerConfiguration/maxConnectionsPerAddress`` already (`OpenConnections`), and closes
  /// it after an answer sent before its request's body was read (`EarlyResponseCloser`). Run it with `runService()`; add services (a
  /// database client) with `addServices`.
  ///
  /// ```swift
  /// var app = service.application(host: "127.0.0.1", port: 8080)
  /// try await app.runService()
  /// ```
  public func application(
    host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> Application<RouterResponder<ServerRequestContext>> {
    let connections = openConnections
    return Application(
      router: router(),
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [connections.handler(), EarlyResponseCloser()],
          idleTimeout: .nanoseconds(Int64(configuration.idleTimeout / .nanoseconds(1))))),
      configuration: ApplicationConfiguration(
        address: .hostname(host, port: port), serverName: "forager-server",
        availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
      logger: logger
    )
  }
}
