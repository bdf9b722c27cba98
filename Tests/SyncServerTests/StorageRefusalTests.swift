import Foundation
import HTTPTypes
import HummingbirdTesting
import Prometheus
import ServerTestSupport
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The service answers a storage error as the storage classified it (``StorageError``): data
/// the storage refused is that request's 4xx, a failure of its own that request's 503 or
/// 500, and neither marks the storage down for the others; only a storage that is away
/// does.
@Suite struct StorageRefusalTests {
  /// Storage that throws `error` for every push of a batch whose id starts with "h:", and
  /// counts the checks the gate makes.
  final class ClassifyingStorage: ForwardingStorage, @unchecked Sendable {
    let inner = MemoryHouseholdStorage()
    let error: StorageError
    private let lock = NSLock()
    private var checks = 0

    init(throwing error: StorageError) { self.error = error }

    var checksMade: Int { lock.withLock { checks } }

    func checkReachable() async throws { lock.withLock { checks += 1 } }
    func append(
      _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
    ) async throws -> PushReceipt {
      if batch.id.hasPrefix("h:") { throw error }
      return try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
    }
  }

  /// Pushes the hostile batch, then another household's: returns the hostile answer, whether
  /// the other was stored, the checks the gate made, and the metrics.
  static func hostileThenOther(_ error: StorageError) async throws -> (TestResponse, HTTPResponse.Status, Int, String) {
    let storage = ClassifyingStorage(throwing: error)
    let registry = PrometheusCollectorRegistry()
    let fixture = ServerFixture(storage: storage, metricsFactory: PrometheusMetricsFactory(registry: registry))
    let hostile = try await fixture.token("Hostile")
    let smith = try await fixture.token("Smith")
    let (answer, other) = try await fixture.test { client in
      let answer = try await client.push(batchBytes(id: "h:1", replica: "h"), token: hostile, deviceSequence: 1)
      let other = try await client.push(batchBytes(id: "s:1", replica: "s"), token: smith, deviceSequence: 1)
      return (answer, other.status)
    }
    var text: [UInt8] = []
    registry.emit(into: &text)
    return (answer, other, storage.checksMade, String(decoding: text, as: UTF8.self))
  }

  @Test(
    arguments: [
      (StorageError.Refusal.Kind.value, HTTPResponse.Status.unprocessableContent, "value-refused"),
      (.constraint, .conflict, "constraint-refused"), (.size, .contentTooLarge, "value-too-large"),
    ] as [(StorageError.Refusal.Kind, HTTPResponse.Status, String)])
  func dataTheStorageRefusesIsThatRequestsRefusalAndOthersGoOnUnchecked(
    kind: StorageError.Refusal.Kind, status: HTTPResponse.Status, code: String
  ) async throws {
    let refusal = StorageError.Refusal(kind, reason: "integer out of range", subject: "schema_version")
    let (answer, other, checks, metrics) = try await Self.hostileThenOther(.refused(refusal))
    #expect(answer.status == status)
    #expect(answer.refusal?.code == code)
    #expect(answer.refusal?.message.contains("(schema_version): integer out of range; nothing was stored") == true)
    #expect(answer.headers[.retryAfter] == nil)
    // The next household's push goes straight through: the gate stayed open, nothing checked.
    #expect(other == .created)
    #expect(checks == 0)
    #expect(metrics.contains(#"forager_storage_refused_total{kind="\#(kind.rawValue)"} 1"#), "\(metrics)")
    #expect(!metrics.contains("forager_database_available 0"))
  }

  @Test(arguments: [(true, HTTPResponse.Status.serviceUnavailable, "storage-busy"), (false, .internalServerError, "storage-failed")])
  func aFailureOfTheStorageItselfIsThatRequestsAndOthersGoOnUnchecked(transient: Bool, status: HTTPResponse.Status, code: String)
    async throws
  {
    let (answer, other, checks, metrics) = try await Self.hostileThenOther(.failed("40P01 deadlock detected", transient: transient))
    #expect(answer.status == status)
    #expect(answer.refusal?.code == code)
    #expect(answer.refusal?.message.contains("deadlock") == false)
    #expect(other == .created)
    #expect(checks == 0)
    #expect(!metrics.contains("forager_database_available 0"))
  }

  @Test func aStorageThatIsAwayIsMarkedDownAndTheNextRequestChecksIt() async throws {
    let (answer, other, checks, metrics) = try await Self.hostileThenOther(.away("connection refused"))
    #expect(answer.status == .serviceUnavailable)
    #expect(answer.refusal?.code == "storage-unavailable")
    #expect(other == .created)
    #expect(checks == 1)
    #expect(metrics.contains("forager_database_available 1"))
    #expect(metrics.contains("forager_storage_unavailable_total 1"), "\(metrics)")
  }
}
