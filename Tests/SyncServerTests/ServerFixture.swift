import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Metrics
import Model
import NIOCore
import ServerTestSupport
import Sync
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// One server over in-memory storage, a clock tests move, and the logs it wrote.
struct ServerFixture {
  let storage: MemoryHouseholdStorage
  let clock = TestClock()
  let logs = LogCapture()
  let service: SyncService
  let admin: Administration

  init(
    maxBatchBytes: Int = 1 << 20, heldBatchBytes: Int = 16 << 20, heldBatchCount: Int = 64, maxPageBytes: Int = 8 << 20,
    storage: (any HouseholdStorage)? = nil, metricsFactory: (any MetricsFactory)? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in }
  ) {
    let memory = (storage as? any ForwardingStorage)?.inner ?? MemoryHouseholdStorage()
    self.storage = memory
    let clock = clock
    let logs = logs
    var configuration = ServerConfiguration(
      maxBatchBytes: maxBatchBytes, maxPullLimit: 50, heldBatchBytes: heldBatchBytes, heldBatchCount: heldBatchCount,
      clock: { clock.now })
    configuration.maxPageBytes = maxPageBytes
    configure(&configuration)
    var logger = Logger(label: "test") { _ in logs }
    logger.logLevel = .trace
    service = SyncService(storage: storage ?? memory, configuration: configuration, logger: logger, metricsFactory: metricsFactory)
    admin = Administration(storage: storage ?? memory, configuration: configuration)
  }

  /// A household (created when new) and a token for one of its devices.
  func token(_ household: String = "Smith", device: String = "phone") async throws -> String {
    if await storage.household(named: household) == nil { _ = try await admin.addHousehold(household) }
    return try await admin.issueToken(household: household, device: device).token.secret
  }

  /// Runs `body` against the router, without a socket.
  func test<T: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
    try await Application(router: service.router()).test(.router) { client in try await body(client) }
  }
}

/// A clock that stands still until a test moves it.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current = Date(timeIntervalSince1970: 1_800_000_000)
  var now: Date { lock.withLock { current } }
  func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// Every log line, to check what the server writes.
final class LogCapture: LogHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace
  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }
  func log(event: LogEvent) {
    lock.withLock { lines.append("\(event.level) \(event.message) \(event.metadata ?? [:])") }
  }
  var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// A batch in the binary form, with one category change.
func batchBytes(id: String, replica: String = "replica-a", schemaVersion: Int = 3, kind: String? = nil) -> Data {
  let change = RecordChange(
    kind: .category, id: UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID(), createdAt: Date(timeIntervalSince1970: 0),
    updatedAt: Date(timeIntervalSince1970: 0), ownerID: "owner", sharingScope: .private,
    fields: [RecordChange.existsField: StampedValue(value: .bool(true), stamp: Stamp(time: 1, counter: 0, replica: replica))])
  var data = ChangeBatchCoding.encode(ChangeBatch(id: id, replica: replica, schemaVersion: schemaVersion, changes: [change]))
  if let kind {
    // Rewrite the kind's name ("category", 8 letters) to one this version does not know.
    precondition(kind.utf8.count == 8)
    if let range = data.range(of: Data("category".utf8)) { data.replaceSubrange(range, with: Data(kind.utf8)) }
  }
  return data
}

/// A device registration's JSON body.
func registration(replica: String, name: String = "phone", schemaVersion: Int = 3) -> Data {
  Data(#"{"replicaID":"\#(replica)","name":"\#(name)","schemaVersion":\#(schemaVersion)}"#.utf8)
}

func headers(token: String?, contentType: String? = Wire.batchMediaType, deviceSequence: Int64? = nil) -> HTTPFields {
  var fields = HTTPFields()
  if let token { fields[.authorization] = "Bearer \(token)" }
  if let contentType { fields[.contentType] = contentType }
  if let deviceSequence, let name = HTTPField.Name(Wire.deviceSequenceHeader) { fields[name] = String(deviceSequence) }
  return fields
}

extension TestClientProtocol {
  /// Pushes bytes as a device.
  func push(_ bytes: Data, token: String?, deviceSequence: Int64?, contentType: String? = Wire.batchMediaType) async throws -> TestResponse
  {
    try await execute(
      uri: Wire.Path.batches, method: .post, headers: headers(token: token, contentType: contentType, deviceSequence: deviceSequence),
      body: ByteBuffer(bytes: bytes))
  }

  /// Pulls a page.
  func pull(token: String, cursor: String? = nil, limit: Int? = nil) async throws -> TestResponse {
    var query: [String] = []
    if let cursor { query.append("cursor=\(cursor)") }
    if let limit { query.append("limit=\(limit)") }
    return try await execute(
      uri: Wire.Path.batches + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), method: .get, headers: headers(token: token))
  }

  /// Registers the token's device.
  func register(_ body: Data, token: String) async throws -> TestResponse {
    try await execute(
      uri: Wire.Path.ownDevice, method: .put, headers: headers(token: token, contentType: Wire.jsonMediaType), body: ByteBuffer(bytes: body)
    )
  }

  func get(_ path: String, token: String?, forwardedFor: String? = nil) async throws -> TestResponse {
    var fields = headers(token: token, contentType: nil)
    if let forwardedFor, let name = HTTPField.Name("X-Forwarded-For") { fields[name] = forwardedFor }
    return try await execute(uri: path, method: .get, headers: fields)
  }
}

extension TestResponse {
  func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
    try WireCoding.decoder().decode(T.self, from: Data(body.readableBytesView))
  }

  /// The refusal's code and message.
  var refusal: WireError.Detail? { (try? decode(WireError.self))?.error }

  var text: String { String(buffer: body) }
}
