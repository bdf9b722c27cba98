import Foundation
import Hummingbird
public import SyncServer

/// Runs `body` with a service's routes listening on a port of 127.0.0.1 (0: a free one),
/// given the server's address and port; the server stops when `body` returns or throws.
public func withService<T: Sendable>(
  _ service: SyncService, port: Int = 0, _ body: @escaping @Sendable (_ url: String, _ port: Int) async throws -> T
) async throws -> T {
  let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
  let app = service.application(host: "127.0.0.1", port: port) { continuation.yield($0) }
  return try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask {
      try await app.runService(gracefulShutdownSignals: [])
      return nil
    }
    defer { group.cancelAll() }
    var iterator = ports.makeAsyncIterator()
    guard let bound = await iterator.next() else { throw CancellationError() }
    return try await body("http://127.0.0.1:\(bound)", bound)
  }
}
