import Foundation
import HTTPTypes
import Synchronization

/// At most `limit` pushes of one household go to the storage at once in this process; the
/// others wait here, in memory. A push waits for its household's lock inside the database
/// while holding one of the pool's connections, so without this one household pushing flat
/// out could hold every connection while its pushes queue on its own lock, and the other
/// households' requests would wait for a connection.
final class HouseholdPushQueue: Sendable {
  private struct Line {
    var running = 0
    var waiting: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  let limit: Int
  private let lines = Mutex<[Int64: Line]>([:])

  init(limit: Int) { self.limit = max(1, limit) }

  /// Runs `body` once fewer than `limit` pushes of the household run.
  /// - Throws: `503 household-busy` with `Retry-After` when no turn came within `timeout`.
  func run<T: Sendable>(_ household: Int64, timeout: Duration, retryAfter: Int, _ body: () async throws -> T) async throws -> T {
    guard try await withDeadline(timeout, { try await self.enter(household) }) != nil else {
      throw ServerError(
        .serviceUnavailable, code: "household-busy",
        message: "the household's other pushes are taking the server's time; try again later", retryAfter: retryAfter)
    }
    defer { leave(household) }
    return try await body()
  }

  private func enter(_ household: Int64) async throws {
    let id = UUID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let admitted = lines.withLock { lines -> Bool in
          var line = lines[household, default: Line()]
          defer { lines[household] = line }
          guard line.running < limit, !Task.isCancelled else {
            if Task.isCancelled { return false }
            line.waiting.append((id, continuation))
            return false
          }
          line.running += 1
          return true
        }
        if admitted {
          continuation.resume()
        } else if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let cancelled = lines.withLock { lines -> CheckedContinuation<Void, any Error>? in
        guard var line = lines[household], let index = line.waiting.firstIndex(where: { $0.id == id }) else { return nil }
        let waiter = line.waiting.remove(at: index)
        lines[household] = line
        return waiter.continuation
      }
      cancelled?.resume(throwing: CancellationError())
    }
  }

  private func leave(_ household: Int64) {
    let next = lines.withLock { lines -> CheckedContinuation<Void, any Error>? in
      guard var line = lines[household] else { return nil }
      defer { lines[household] = line.running == 0 && line.waiting.isEmpty ? nil : line }
      // The slot passes to the first waiter, if any.
      guard !line.waiting.isEmpty else {
        line.running -= 1
        return nil
      }
      return line.waiting.removeFirst().continuation
    }
    next?.resume()
  }
}
