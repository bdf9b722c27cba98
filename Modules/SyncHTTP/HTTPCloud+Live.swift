import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
public import Sync
import SyncWire
import Synchronization

extension HTTPCloud: LiveCloud {
  /// Subscribes to the server's live channel, `GET /v1/live` (Docs/SERVER.md, "Live"): a
  /// Server-Sent Events stream read through async-http-client as it arrives. Its events
  /// become `LiveSignal`s; a refusal (too many subscriptions, a revoked token), a dropped
  /// connection or a server shutting down end the channel with the reason, and the device's
  /// `LiveSync` polls and subscribes again.
  public func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel {
    HTTPLiveChannel(
      client: requester.client, url: requester.base + Wire.Path.live, authorization: requester.authorization, handler: handler)
  }
}

/// One subscription to `GET /v1/live`, read by a task of its own until it ends or is closed.
final class HTTPLiveChannel: LiveChannel {
  private let task = Mutex<Task<Void, Never>?>(nil)
  private let ended = Mutex(false)
  private let handler: @Sendable (LiveSignal) -> Void

  init(client: HTTPClient, url: String, authorization: String, handler: @escaping @Sendable (LiveSignal) -> Void) {
    self.handler = handler
    let reading = Task { [weak self] in
      let last = await Self.read(client: client, url: url, authorization: authorization) { [weak self] signal in self?.deliver(signal) }
      self?.deliver(last)
    }
    task.withLock { $0 = reading }
  }

  func close() {
    task.withLock { $0 }?.cancel()
    deliver(.ended("closed"))
  }

  /// Hands a signal over, and nothing after the first that ends the channel.
  private func deliver(_ signal: LiveSignal) {
    ended.withLock { ended in
      guard !ended else { return }
      switch signal {
      case .ended, .refused: ended = true
      case .opened, .announced, .heartbeat: break
      }
      handler(signal)
    }
  }

  /// Reads the stream until it ends; the signal that ends it: why, and for a refusal that
  /// says when to come back (`Retry-After`), when.
  static func read(
    client: HTTPClient, url: String, authorization: String, deliver: @Sendable (LiveSignal) -> Void
  ) async -> LiveSignal {
    var request = HTTPClientRequest(url: url)
    request.headers.add(name: "Authorization", value: authorization)
    request.headers.add(name: "Accept", value: Wire.eventStreamMediaType)
    do {
      // No deadline: the stream lasts as long as the device is live; silence is noticed by
      // LiveSync (no event for two and a half heartbeats).
      let response = try await client.execute(request, deadline: .distantFuture)
      guard response.status == .ok else {
        let body = try? await response.body.collect(upTo: 64 << 10)
        let wire = body.flatMap { try? WireCoding.decoder().decode(WireError.self, from: Data($0.readableBytesView)) }
        let reason =
          "the server refused the live channel: \(response.status.code) \(wire.map { "\($0.error.code): \($0.error.message)" } ?? "")"
        // A whole number of seconds, as the server sends it; a date or garbage is no time.
        let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard let retryAfter, retryAfter >= 0 else { return .ended(reason) }
        return .refused(reason, retryAfter: .seconds(min(retryAfter, 3_600)))
      }
      var reader = LiveEventReader()
      for try await buffer in response.body {
        for event in try reader.feed(buffer.readableBytesView) {
          switch event {
          case .hello(let latest, let heartbeat): deliver(.opened(latestSequence: latest, heartbeat: .seconds(max(1, heartbeat))))
          case .sequence(let latest): deliver(.announced(latest))
          case .heartbeat(let latest): deliver(.heartbeat(latestSequence: latest))
          case .closing(let reason) where reason.hasPrefix("token-"):
            // The token no longer holds (revoked, expired, its household deleted): opening
            // the channel again would be refused, so the device polls, and the polls say why.
            return .refused("the server closed the live channel: the token no longer holds (\(reason))", retryAfter: .seconds(3_600))
          case .closing(let reason): return .ended("the server closed the live channel (\(reason))")
          }
        }
      }
      return .ended("the server ended the live channel")
    } catch {
      if Task.isCancelled { return .ended("closed") }
      return .ended("the live channel failed: \(Requester.describe(error))")
    }
  }
}
