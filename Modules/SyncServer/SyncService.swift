import Foundation
public import HTTPTypes
public import Hummingbird
public import Logging
public import Metrics
import NIOCore
import SyncWire

/// The sync server's HTTP routes (protocol v1, Docs/SERVER.md) over a ``HouseholdLog``.
///
/// The routes hold no state of their own: everything lives in the storage, so several
/// servers on one database answer alike. They are tested without a socket through
/// HummingbirdTesting's router client, and served by ``SyncServer``.
///
/// ```swift
/// let service = SyncService(storage: MemoryHouseholdStorage())
/// let app = Application(router: service.router())
/// ```
public struct SyncService: Sendable {
  public let storage: any HouseholdLog
  public let configuration: ServerConfiguration
  let logger: Logger
  let gate = StorageGate()
  /// `/v1/ready`'s checks, at most one a second.
  let readiness = ReadinessCache()
  /// Requests per token (``ServerConfiguration/tokenRequestsPerSecond``).
  let rateLimit: RequestRateLimit
  /// Requests per client address, read before any token (``ServerConfiguration/addressRequestsPerSecond``).
  let addressRateLimit: RequestRateLimit?
  let pushQueue: HouseholdPushQueue
  /// Turns at the batch checks, handed out fairly across households and addresses.
  let checks: CheckTurns
  let metrics: ServerMetrics
  /// The gauge of open client connections, fed by each connection's pipeline.
  let openConnections: OpenConnections
  /// The live channel's subscribers in this process; a server on PostgreSQL feeds it the
  /// other instances' pushes too (`CredentialWatcher(storage:announcer:)`).
  public let announcer: LiveAnnouncer
  /// Ends live streams whose credential no longer holds.
  let liveCheck: LiveCredentialCheck

  /// - Parameter metricsFactory: where the server's metrics go (``ServerMetrics``; default:
  ///   the process's `MetricsSystem`).
  public init(
    storage: any HouseholdLog, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger? = nil,
    metricsFactory: (any MetricsFactory)? = nil
  ) {
    self.storage = storage
    self.configuration = configuration
    self.logger = logger ?? Logger(label: "forager-server")
    rateLimit = RequestRateLimit(rate: configuration.tokenRequestsPerSecond, burst: configuration.tokenBurst)
    addressRateLimit = configuration.addressRequestsPerSecond.map {
      RequestRateLimit(rate: $0, burst: configuration.addressBurst, capacity: configuration.addressBuckets)
    }
    pushQueue = HouseholdPushQueue(limit: configuration.pushesPerHousehold)
    checks = CheckTurns(
      .init(
        slots: configuration.checkSlots, perHousehold: configuration.checksPerHousehold, perAddress: configuration.checksPerAddress,
        queue: configuration.checkQueue))
    metrics = ServerMetrics(factory: metricsFactory ?? MetricsSystem.factory)
    openConnections = OpenConnections(
      factory: metricsFactory ?? MetricsSystem.factory,
      perAddress: configuration.trustForwardedFor ? nil : configuration.maxConnectionsPerAddress)
    announcer = LiveAnnouncer(
      perToken: configuration.liveSubscribersPerToken, total: configuration.liveSubscribers,
      holdWhilePushing: configuration.liveHoldWhilePushing)
    liveCheck = LiveCredentialCheck(
      announcer: announcer, storage: storage, clock: configuration.clock, lookupTimeout: configuration.storageTimeout)
    let announcer = announcer
    storage.onCredentialChange { announcer.credentialsChanged() }
  }

  /// A route of the protocol: its method, its path, who may ask it and what answers it.
  /// Equal and hashed by method and path.
  public struct Route: Sendable, Hashable, CustomStringConvertible {
    /// Who may ask a route, which decides the limits a request of it passes.
    public enum Access: Sendable, Hashable {
      /// The liveness probe: no token, answered from memory, and never limited, so a probe
      /// is not refused for its address.
      case liveness
      /// The readiness probe: no token; it takes from the client address's bucket like
      /// every request that costs more than memory.
      case readiness
      /// A device's request: it takes from the address's bucket, and its handler checks
      /// the token (and the token's own rate).
      case device
    }

    public let method: HTTPRequest.Method
    public let path: String
    public let access: Access
    /// Answers a request of the route.
    let handler: @Sendable (SyncService, Request, ServerRequestContext) async throws -> Response

    /// Whether the route is a probe (liveness or readiness), which needs no token.
    public var isProbe: Bool { access != .device }
    /// Whether a request of the route takes from its client address's bucket.
    public var isLimitedByAddress: Bool { access != .liveness }
    public var description: String { "\(method.rawValue) \(path)" }

    public static func == (lhs: Route, rhs: Route) -> Bool { lhs.method == rhs.method && lhs.path == rhs.path }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(method)
      hasher.combine(path)
    }
  }

  /// Every route the server serves, each once: the router is built from this table, the
  /// limits read each route's ``Route/access``, and the OpenAPI document (Docs/openapi.yaml)
  /// is tested against it.
  public static let routes: [Route] = [
    Route(method: .get, path: Wire.Path.health, access: .liveness) { service, _, _ in service.json(["status": "ok"]) },
    Route(method: .get, path: Wire.Path.ready, access: .readiness) { service, _, _ in try await service.ready() },
    Route(method: .get, path: Wire.Path.session, access: .device) { service, request, _ in try await service.session(request) },
    Route(method: .post, path: Wire.Path.batches, access: .device) { service, request, context in
      try await service.push(request, context: context)
    },
    Route(method: .get, path: Wire.Path.batches, access: .device) { service, request, _ in try await service.pull(request) },
    Route(method: .get, path: Wire.Path.devices, access: .device) { service, request, _ in try await service.devices(request) },
    Route(method: .put, path: Wire.Path.ownDevice, access: .device) { service, request, _ in try await service.register(request) },
    Route(method: .get, path: Wire.Path.live, access: .device) { service, request, _ in try await service.live(request) },
    Route(method: .get, path: Wire.Path.snapshot, access: .device) { service, request, _ in try await service.snapshot(request) },
  ]

  /// The router serving ``routes``, with request logging (method, path, status, time;
  /// never headers, so never a token) and Hummingbird's request metrics (by route and
  /// status, with durations).
  public func router() -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: AuthorityTimeMiddleware(clock: configuration.clock))
    for route in Self.routes {
      router.on(RouterPath(route.path), method: route.method) { request, context in
        try await self.respond(to: route, request, context: context)
      }
    }
    return router
  }

  private func respond(to route: Route, _ request: Request, context: ServerRequestContext) async throws -> Response {
    if route.isLimitedByAddress { try limitAddress(request, context: context) }
    do {
      return try await route.handler(self, request, context)
    } catch let error as ServerError {
      throw error
    } catch {
      // A storage failure: logged here, answered without its details.
      logger.error("\(route) failed: \(String(describing: error))")
      throw ServerError.storageUnavailable(retryAfter: configuration.unavailableRetryAfter)
    }
  }

  /// Takes one request from the client address's bucket, before any token is read: a
  /// flood of bad tokens or unauthenticated requests is refused without a database lookup.
  /// - Throws: ``ServerError`` `429 rate-limited` with `Retry-After`.
  func limitAddress(_ request: Request, context: ServerRequestContext) throws(ServerError) {
    guard let addressRateLimit, let address = clientAddress(request, context: context) else { return }
    if let retryAfter = addressRateLimit.take(address, now: configuration.clock()) {
      metrics.rateLimited(limit: "address")
      throw .addressRateLimited(address, retryAfter: retryAfter, rate: Int(addressRateLimit.rate))
    }
  }

  /// The client's address as the per-address limits count it (``ClientAddress``).
  func clientAddress(_ request: Request, context: ServerRequestContext) -> String? {
    ClientAddress.key(peer: context.remoteAddress, headers: request.headers, trustForwardedFor: configuration.trustForwardedFor)
  }

  // MARK: Session and registry

  func session(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    let device = try await stored { try await storage.deviceState(of: credential.deviceID) }
    let latest = try await stored { try await storage.latestSequence(of: credential.householdID) }
    return json(
      SessionInfo(
        household: credential.household, cloudIdentifier: credential.cloudIdentifier, device: credential.device,
        replicaID: device.replicaID, deviceSequence: device.lastDeviceSequence, latestSequence: latest, expiresAt: credential.expiresAt))
  }

  func devices(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    return json(DeviceList(devices: try await stored { try await storage.devices(of: credential.householdID) }))
  }

  func register(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    try requireContentType(request, Wire.jsonMediaType)
    let body = try await collect(request, limit: configuration.maxJSONBytes)
    let registration: DeviceRegistration
    do {
      registration = try WireCoding.decoder().decode(DeviceRegistration.self, from: body)
    } catch {
      throw ServerError.badRequest(
        "body-invalid", "the body is not a device registration {replicaID, name, schemaVersion}: \(Self.describe(error))")
    }
    try Validation.name(registration.name, what: "device name", limit: configuration.maxNameLength)
    try Validation.identifier(registration.replicaID, what: "replica id")
    guard Validation.schemaVersions.contains(registration.schemaVersion) else {
      throw ServerError.badRequest(
        "schema-version-invalid",
        "schema version \(registration.schemaVersion) is not between 1 and \(Validation.schemaVersions.upperBound)")
    }
    let now = configuration.clock()
    return json(try await stored { try await storage.register(registration, for: credential, now: now) })
  }

  // MARK: Helpers

  func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    json((try? WireCoding.encoder().encode(value)) ?? Data("{}".utf8), status: status)
  }

  /// A JSON body already written (``PullPage/encodedJSON()``, ``PushReceipt/encodedJSON()``).
  func json(_ body: Data, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: Wire.jsonMediaType], body: .init(byteBuffer: ByteBuffer(bytes: body)))
  }

  func requireContentType(_ request: Request, _ expected: String) throws(ServerError) {
    let given = request.headers[.contentType]
    if given == expected { return }
    let mediaType = given?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard mediaType == expected else { throw .wrongContentType(got: given, expected: expected) }
  }

  /// The body, refused past `limit` bytes (by its Content-Length before reading it, or
  /// while reading one sent without a length), or when it takes longer than
  /// ``ServerConfiguration/bodyTimeout`` to arrive.
  func collect(_ request: Request, limit: Int) async throws -> Data {
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw ServerError.tooLarge(limit: limit) }
    let body = request.body
    do {
      guard let buffer = try await withDeadline(configuration.bodyTimeout, { try await body.collect(upTo: limit) }) else {
        throw ServerError.bodyTimeout(configuration.bodyTimeout)
      }
      return Data(buffer.readableBytesView)
    } catch is NIOTooManyBytesError {
      throw ServerError.tooLarge(limit: limit)
    }
  }

  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "'\(key.stringValue)' is missing"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
    case DecodingError.dataCorrupted: "it is not valid JSON"
    default: "it cannot be read"
    }
  }
}
