import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import SyncWire
import Synchronization

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
  /// is still being written. Announcements closer together than
  /// ``ServerConfiguration/liveAnnouncementGap`` are coalesced into the newest.
  ///
  /// A stream ends, with `closing` naming why (`token-revoked`, `token-expired`,
  /// `token-unknown`), within about a quarter second of its token's revocation or expiry or
  /// its household's deletion (``LiveCredentialCheck``).
  func live(_ request: Request) async throws -> Response {
    // Read before the token is looked up: a change heard after it is looked at again.
    let changesSeen = announcer.credentialChanges
    let (credential, hash) = try await authenticated(request)
    let latest = try await stored { try await storage.latestSequence(of: credential.householdID) }
    let subscription: LiveSubscription
    do {
      subscription = try announcer.subscribe(
        household: credential.householdID, token: credential.tokenID, latest: latest,
        access: LiveSubscription.Access(tokenHash: hash, expiresAt: credential.expiresAt, changesSeen: changesSeen))
    } catch {
      metrics.liveRefused(error.code)
      throw error
    }
    liveCheck.start()
    metrics.liveSubscribers(announcer.count)
    let (heartbeat, writeTimeout, gap, metrics, announcer, logger) = (
      configuration.liveHeartbeat, configuration.idleTimeout, configuration.liveAnnouncementGap, metrics, announcer, logger
    )
    let device = credential.device
    let body = ResponseBody { writer in
      let stream = StreamWriter(writer)
      let pacer = LivePacer(heartbeat: heartbeat, writeTimeout: writeTimeout)
      defer {
        subscription.end()
        metrics.liveSubscribers(announcer.count)
      }
      /// Writes one event; the watchdog ends the stream when the subscriber does not take it in time.
      @Sendable func send(_ event: LiveEvent) async throws {
        pacer.began()
        try await stream.writer.write(ByteBuffer(string: event.text))
        pacer.ended()
        metrics.liveEvent(event.kind)
      }
      try await withGracefulShutdownHandler {
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            try await send(.hello(latestSequence: latest, heartbeatSeconds: Int(heartbeat.components.seconds)))
            let clock = ContinuousClock()
            var lastAnnounced: ContinuousClock.Instant?
            while true {
              switch await subscription.next() {
              case .announce(var sequence):
                // Closer than the gap to the last announcement: wait it out and send the newest.
                if let lastAnnounced, case let rest = gap - (clock.now - lastAnnounced), rest > .zero {
                  await CancellableSleep.sleep(for: rest)
                  guard !Task.isCancelled else { return }
                  sequence = subscription.takeNewer() ?? sequence
                }
                try await send(.sequence(sequence))
                lastAnnounced = clock.now
              case .heartbeat(let told): try await send(.heartbeat(latestSequence: told))
              case .closed(let reason):
                guard !Task.isCancelled else { return }
                try await send(.closing(reason: reason.rawValue))
                return
              }
            }
          }
          // One watchdog per stream, not a timer per event: heartbeats while nothing is
          // written, and the end of a stream whose write the subscriber does not take.
          group.addTask {
            while true {
              await CancellableSleep.sleep(for: pacer.tick)
              try Task.checkCancellation()
              switch pacer.check() {
              case .quiet: continue
              case .heartbeatDue: subscription.heartbeatDue()
              case .stalled:
                logger.info("live subscriber '\(device)' did not read its stream within \(writeTimeout); closed")
                return
              }
            }
          }
          defer { group.cancelAll() }
          try await group.next()
        }
      } onGracefulShutdown: {
        subscription.close(.shutdown)
      }
      try await stream.writer.finish(nil)
    }
    return Response(status: .ok, headers: [.contentType: Wire.eventStreamMediaType, .cacheControl: "no-store"], body: body)
  }
}

/// When a live stream last wrote and whether a write is under way, for its watchdog.
private final class LivePacer: Sendable {
  enum Verdict { case quiet, heartbeatDue, stalled }

  let heartbeat: Duration
  let writeTimeout: Duration
  /// How often the watchdog looks: a heartbeat goes out at most a quarter of an interval
  /// late (well inside the two and a half intervals a client waits), and a stalled write
  /// ends at most a quarter of the write timeout late.
  let tick: Duration
  private let clock = ContinuousClock()
  private let state: Mutex<(lastWrite: ContinuousClock.Instant, writeStarted: ContinuousClock.Instant?)>

  init(heartbeat: Duration, writeTimeout: Duration) {
    self.heartbeat = heartbeat
    self.writeTimeout = writeTimeout
    tick = min(heartbeat, writeTimeout) / 4
    state = Mutex((clock.now, nil))
  }

  func began() {
    let now = clock.now
    state.withLock { $0.writeStarted = now }
  }

  func ended() {
    let now = clock.now
    state.withLock { $0 = (now, nil) }
  }

  func check() -> Verdict {
    let now = clock.now
    return state.withLock { state in
      if let started = state.writeStarted { return now - started >= writeTimeout ? .stalled : .quiet }
      return now - state.lastWrite >= heartbeat ? .heartbeatDue : .quiet
    }
  }
}

/// A response's writer, handed to the stream's one writing task.
private final class StreamWriter: @unchecked Sendable {
  var writer: any ResponseBodyWriter

  init(_ writer: any ResponseBodyWriter) { self.writer = writer }
}
