import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import SyncWire

extension SyncService {
  /// `GET /v1/live`: a Server-Sent Events stream of where the token's household log ends
  /// (``LiveEvent``): `hello` with the end when it opens, `sequence` as batches commit (on
  /// any server instance on the database), `heartbeat` every
  /// ``ServerConfiguration/liveHeartbeat`` while nothing happens, `closing` when the server
  /// shuts down or the subscriber stops reading.
  ///
  /// Bounded by ``LiveAnnouncer`` (per token, per process); a stream holds one connection
  /// and, however slowly it is read, one event's bytes: announcements coalesce, and a write
  /// the subscriber does not take within ``ServerConfiguration/idleTimeout`` ends it.
  /// The idle timeout itself never cuts a stream: the request was read whole and its answer
  /// is still being written.
  func live(_ request: Request) async throws -> Response {
    let credential = try await authenticate(request)
    let latest = try await stored { try await storage.latestSequence(of: credential.householdID) }
    let subscription: LiveSubscription
    do {
      subscription = try announcer.subscribe(household: credential.householdID, token: credential.tokenID, latest: latest)
    } catch {
      metrics.liveRefused(error.code)
      throw error
    }
    metrics.liveSubscribers(announcer.count)
    let (heartbeat, writeTimeout, metrics, announcer, logger) = (
      configuration.liveHeartbeat, configuration.idleTimeout, metrics, announcer, logger
    )
    let device = credential.device
    let body = ResponseBody { writer in
      let stream = StreamWriter(writer)
      defer {
        subscription.end()
        metrics.liveSubscribers(announcer.count)
      }
      /// Writes one event, or ends the stream when the subscriber does not take it in time.
      func send(_ event: LiveEvent) async throws -> Bool {
        let bytes = ByteBuffer(string: event.text)
        let written: Bool? = try await withDeadline(writeTimeout) {
          try await stream.writer.write(bytes)
          return true
        }
        metrics.liveEvent(event.name)
        return written == true
      }
      try await withGracefulShutdownHandler {
        guard try await send(.hello(latestSequence: latest, heartbeatSeconds: Int(heartbeat.components.seconds))) else { return }
        while true {
          switch await subscription.next(timeout: heartbeat) {
          case .announce(let sequence):
            guard try await send(.sequence(sequence)) else { return }
          case .heartbeat(let told):
            guard try await send(.heartbeat(latestSequence: told)) else {
              logger.info("live subscriber '\(device)' did not read its stream within \(writeTimeout); closed")
              return
            }
          case .closed(let reason):
            _ = try await send(.closing(reason: reason.rawValue))
            return
          }
        }
      } onGracefulShutdown: {
        subscription.close(.shutdown)
      }
      try await stream.writer.finish(nil)
    }
    return Response(status: .ok, headers: [.contentType: Wire.eventStreamMediaType, .cacheControl: "no-store"], body: body)
  }
}

/// A response's writer, handed to the one task at a time that writes (``withDeadline``
/// waits for its work to end before returning, so two tasks never write at once).
private final class StreamWriter: @unchecked Sendable {
  var writer: any ResponseBodyWriter

  init(_ writer: any ResponseBodyWriter) { self.writer = writer }
}
