import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
public import Sync
public import SyncWire

/// A cloud that is a household on `forager-server`: the `CloudStore` a device uses to sync
/// through the server (Docs/SERVER.md).
///
/// `CloudStore` is synchronous: the engine calls it from the REPL's or a batch script's
/// thread. Each call sends one HTTP request and waits for its answer on the calling
/// thread, which must not be an event-loop thread (the call refuses there instead of
/// blocking the loop its own answer would arrive on). An unreachable server, a timeout or
/// a server error (5xx) is `CloudError/unavailable(location:reason:)`: sync treats it
/// as offline, and the device's changes wait for the next sync. A refusal (a revoked
/// token, a batch the server will not take) is ``HTTPCloudError``.
///
/// Pushes carry the device's batch sequence (`Forager-Device-Sequence`): the cloud learns
/// the device's last accepted number from the server when it opens, counts up, and asks
/// again after any failure, so a retry of a batch the server already stored is answered
/// with its receipt and a new batch never leaves a gap.
///
/// ```swift
/// let cloud = try HTTPCloud(url: "http://127.0.0.1:8080", token: token, household: "Smith kitchen")
/// let engine = SyncEngine(store: store, cloud: cloud, deviceName: "phone")
/// try engine.sync()
/// ```
public final class HTTPCloud: CloudStore, @unchecked Sendable {
  /// The server's address, as shown in messages and errors.
  public let location: String
  /// The household's log identifier on the server (the same through every server instance).
  public let identifier: String
  /// Who the token is, as the server said when the cloud opened.
  public let session: SessionInfo
  /// The household the token belongs to.
  public var household: String { session.household }
  /// The device the token was issued for, as the server names it.
  public var serverDevice: String { session.device }

  let requester: Requester
  /// The device's last accepted batch sequence, when known; nil after any failure.
  private var deviceSequence: Int64?
  private let lock = NSLock()

  /// Opens the household the token belongs to on the server at `url`.
  /// - Parameters:
  ///   - url: `http://HOST:PORT` of `forager-server`.
  ///   - token: the device's token (`forager-server issue-token`).
  ///   - household: when given, the household the token must belong to.
  ///   - timeout: how long one request may take.
  ///   - retry: how often and after what delays a request that failed for a passing
  ///     reason (no connection, no answer in time, a 5xx answer) is sent again.
  /// - Throws: `CloudError/unavailable(location:reason:)` when the server cannot be
  ///   reached, ``HTTPCloudError`` when it refuses the token or names another household.
  public init(
    url: String, token: String, household: String? = nil, timeout: Duration = .seconds(15), retry: RetryPolicy = .standard
  ) throws {
    var base = url
    while base.hasSuffix("/") { base.removeLast() }
    guard base.hasPrefix("http://") || base.hasPrefix("https://"), URL(string: base)?.host != nil else {
      throw HTTPCloudError.badURL(url)
    }
    let location = household.map { "\(base) (household \($0))" } ?? base
    self.location = location
    requester = Requester(
      client: Requester.client, base: base, authorization: "Bearer " + token.trimmingCharacters(in: .whitespacesAndNewlines),
      timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000),
      location: location, retry: retry)
    let session: SessionInfo = try requester.decode(requester.send(.GET, Wire.Path.session))
    if let household, household != session.household {
      throw HTTPCloudError.householdMismatch(expected: household, token: session.household)
    }
    self.session = session
    self.identifier = session.cloudIdentifier
    self.deviceSequence = session.deviceSequence
  }

  /// Sends a batch to the server and returns the sequence number the household's log gave it.
  ///
  /// A retry of a batch the server already stored returns its first receipt.
  public func push(_ batch: ChangeBatch) throws -> Int64 {
    let body = ChangeBatchCoding.encode(batch)
    var resynced = false
    while true {
      let next = try knownDeviceSequence() + 1
      let response: Requester.Response
      do {
        response = try requester.send(
          .POST, Wire.Path.batches, body: body,
          headers: [("Content-Type", Wire.batchMediaType), (Wire.deviceSequenceHeader, String(next))], refuse: false)
      } catch {
        forgetDeviceSequence()
        throw error
      }
      if response.status == .ok || response.status == .created {
        let receipt: PushReceipt = try requester.decode(response)
        lock.withLock { deviceSequence = receipt.stored ? receipt.deviceSequence : nil }
        return receipt.sequence
      }
      let refusal = HTTPCloudError.refusal(response)
      forgetDeviceSequence()
      // Another process of this device pushed meanwhile: learn its number and try once more.
      if case .refused(_, let code, _) = refusal, code.hasPrefix("device-sequence-"), !resynced {
        resynced = true
        continue
      }
      throw refusal
    }
  }

  /// Returns up to `limit` (at most 1,000) log entries after `sequence`, oldest first.
  public func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    let path =
      Wire.Path.batches + "?\(Wire.Query.cursor)=\(PullCursor(after: sequence, log: identifier).encoded)"
      + "&\(Wire.Query.limit)=\(min(max(limit, 1), 1_000))"
    let response = try requester.send(.GET, path, refuse: false)
    guard (200..<300).contains(response.status.code) else {
      let wire = response.body.flatMap { try? WireCoding.decoder().decode(WireError.self, from: Data($0.readableBytesView)) }
      if let wire, wire.error.code == "cursor-ahead", let latest = wire.error.latestSequence, latest < sequence {
        throw CloudError.cursorAhead(location: location, cursor: sequence, latestSequence: latest)
      }
      if let wire, wire.error.code == "log-compacted", let firstKept = wire.error.firstKeptSequence, firstKept > sequence + 1 {
        throw CloudError.compacted(location: location, cursor: sequence, firstKept: firstKept)
      }
      throw HTTPCloudError.refusal(response)
    }
    let page: PullPage = try requester.decode(response)
    return page.entries.map { ChangeBatchCoding.entry(sequence: $0.sequence, bytes: $0.batch, location: location) }
  }

  /// The sequence number of the newest entry in the household's log on the server.
  public func latestSequence() throws -> Int64 {
    let session: SessionInfo = try requester.decode(requester.send(.GET, Wire.Path.session))
    return session.latestSequence
  }

  /// Tells the server this device's name, replica id and schema version.
  public func register(_ device: CloudDevice) throws {
    let registration = DeviceRegistration(replicaID: device.replicaID, name: device.name, schemaVersion: device.schemaVersion)
    let body = try WireCoding.encoder().encode(registration)
    _ = try requester.send(.PUT, Wire.Path.ownDevice, body: body, headers: [("Content-Type", Wire.jsonMediaType)])
  }

  /// The household's registered devices, each by the name the household knows it by (its
  /// token's device: "phone", "laptop"), not the name its session registered with, which
  /// several processes may share ("default"). A device the server knows but that never
  /// registered has no replica yet and is left out.
  public func devices() throws -> [CloudDevice] {
    let list: DeviceList = try requester.decode(requester.send(.GET, Wire.Path.devices))
    return list.devices.compactMap { entry in
      guard let replica = entry.replicaID, let lastSeen = entry.lastSeen else { return nil }
      return CloudDevice(replicaID: replica, name: entry.device, schemaVersion: entry.schemaVersion, lastSeen: lastSeen)
    }
  }

  /// The server's clock: the household's time authority. Every answer carries it; when
  /// none arrived in the last 30 seconds, a health check asks. Nil when the server does not
  /// tell its time (a version before the time authority).
  public func authorityTime() throws -> Date? {
    if let now = requester.serverClock.now(maxAge: Self.freshReading) { return now }
    _ = try requester.send(.GET, Wire.Path.health, refuse: false)
    return requester.serverClock.now(maxAge: Self.freshReading)
  }

  /// How long an answer's time is used before the server is asked again.
  static let freshReading: Duration = .seconds(30)

  // MARK: Device sequence

  private func knownDeviceSequence() throws -> Int64 {
    if let known = lock.withLock({ deviceSequence }) { return known }
    let session: SessionInfo = try requester.decode(requester.send(.GET, Wire.Path.session))
    lock.withLock { deviceSequence = session.deviceSequence }
    return session.deviceSequence
  }

  private func forgetDeviceSequence() { lock.withLock { deviceSequence = nil } }
}
