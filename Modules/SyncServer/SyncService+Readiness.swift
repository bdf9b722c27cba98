import Foundation
import Hummingbird
import Logging

extension SyncService {
  /// `GET /v1/ready`: 200 `{"status":"ready"}` when the storage answers a check within
  /// ``ServerConfiguration/readinessTimeout``; `503 storage-unavailable` with `Retry-After`
  /// when not. `/v1/health` answers whenever the process does (liveness); this is what a
  /// load balancer asks before sending requests. The check runs at most once a second per
  /// process (``ReadinessCache``): requests in between are answered with its outcome, and
  /// requests that arrive while it runs wait for it.
  func ready() async throws -> Response {
    guard await readiness.reachable(now: configuration.clock(), check: { await self.checkStorage() }) else {
      throw ServerError.storageUnavailable(retryAfter: configuration.unavailableRetryAfter)
    }
    return json(["status": "ready"])
  }

  /// Whether the storage answers a check in time; the gate learns the outcome.
  func checkStorage() async -> Bool {
    let storage = storage
    let reachable = ((try? await withDeadline(configuration.readinessTimeout) { try await storage.checkReachable() }) ?? nil) != nil
    if !reachable { logger.warning("the database did not answer a check within \(configuration.readinessTimeout)") }
    gate.record(reachable: reachable)
    metrics.database(available: reachable)
    return reachable
  }

  /// Runs one storage call of a request under the ``StorageGate``: refused at once while the
  /// storage is down (but for the one request that checks it). What the call throws is
  /// answered as the storage classified it (``StorageError``): data it refused is this
  /// request's `4xx`, a failure of its own this request's `503 storage-busy` or
  /// `500 storage-failed`, and only a call that outlasts
  /// ``ServerConfiguration/storageTimeout`` or a storage that is away (or an error it did not
  /// classify) is `503 storage-unavailable` with `Retry-After` and marks the storage down for
  /// every request. A ``ServerError`` the storage throws (a rule's refusal) passes unchanged.
  func stored<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
    let retryAfter = configuration.unavailableRetryAfter
    do {
      try await gate.admit(retryAfter: retryAfter) { await self.checkStorage() }
    } catch {
      metrics.storageUnavailable()
      throw error
    }
    do {
      guard let value = try await withDeadline(configuration.storageTimeout, work) else {
        logger.error("the database did not answer within \(configuration.storageTimeout)")
        unavailable()
        throw ServerError.storageUnavailable(retryAfter: retryAfter)
      }
      return value
    } catch let error as ServerError {
      throw error
    } catch StorageError.refused(let refusal) {
      // The request's own data: its answer, the storage up.
      logger.notice("the database refused a request's data: \(StorageError.refused(refusal))")
      metrics.storageRefused(refusal.kind)
      throw ServerError.storageRefused(refusal)
    } catch StorageError.failed(let reason, let transient) {
      logger.error("the database failed a request: \(reason)")
      throw ServerError.storageFailed(transient: transient, retryAfter: retryAfter)
    } catch {
      // The storage is away: logged here, answered without its details.
      logger.error("the database failed: \(String(describing: error))")
      unavailable()
      throw ServerError.storageUnavailable(retryAfter: retryAfter)
    }
  }

  private func unavailable() {
    gate.record(reachable: false)
    metrics.database(available: false)
    metrics.storageUnavailable()
  }
}
