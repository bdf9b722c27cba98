import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SyncServer
import SyncWire
import Testing

/// Liveness, readiness and requests while the database is away: liveness answers, readiness
/// and requests are `503 storage-unavailable` with `Retry-After` within the configured
/// timeouts, and requests that arrive while one checks the database are refused without
/// waiting on it. The absent database holds every call for an hour, so any answer at all
/// shows the timeout answered; the suite's time limit fails a request that waits on it.
@Suite(.timeLimit(.minutes(5)))
struct StorageAvailabilityTests {
  let storage = AwayStorage()
  let clock = TestClock()
  let service: SyncService

  init() {
    let clock = clock
    var configuration = ServerConfiguration(clock: { clock.now })
    configuration.storageTimeout = .milliseconds(300)
    configuration.readinessTimeout = .milliseconds(200)
    configuration.unavailableRetryAfter = 3
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    service = SyncService(storage: storage, configuration: configuration, logger: logger)
  }

  func token() async throws -> String {
    let admin = Administration(storage: storage)
    _ = try await admin.addHousehold("Smith")
    return try await admin.issueToken(household: "Smith", device: "phone").token.secret
  }

  @Test func livenessAnswersAndReadinessAndRequestsAreRefusedInTimeWhileTheDatabaseIsAway() async throws {
    let phone = try await token()
    try await Application(router: service.router()).test(.router) { client in
      #expect(try await client.get(Wire.Path.ready, token: nil).status == .ok)
      storage.away = true
      #expect(try await client.get(Wire.Path.health, token: nil).status == .ok)
      // Readiness is checked again once its last check is a second old.
      clock.advance(by: 1)
      let ready = try await client.get(Wire.Path.ready, token: nil)
      #expect(ready.status == .serviceUnavailable && ready.headers[.retryAfter] == "3")
      #expect(ready.refusal?.code == "storage-unavailable")
      let pull = try await client.pull(token: phone)
      #expect(pull.status == .serviceUnavailable && pull.headers[.retryAfter] == "3")

      storage.away = false
      clock.advance(by: 1)
      #expect(try await client.get(Wire.Path.ready, token: nil).status == .ok)
      #expect(try await client.pull(token: phone).status == .ok)
    }
  }

  @Test func aRequestThatOutlastsTheStorageTimeoutIs503AndTheNextOnesDoNotWaitOnTheDatabase() async throws {
    let phone = try await token()
    try await Application(router: service.router()).test(.router) { client in
      storage.away = true
      let first = try await client.get(Wire.Path.session, token: phone)
      #expect(first.status == .serviceUnavailable && first.headers[.retryAfter] == "3")
      #expect(storage.callsWhileAway == 1)
      // Twenty at once: one of them checks the database, the others are refused meanwhile.
      let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
        for _ in 0..<20 { group.addTask { try await client.get(Wire.Path.session, token: phone).status } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.allSatisfy { $0 == .serviceUnavailable })
      #expect(storage.callsWhileAway < 10, "\(storage.callsWhileAway) calls waited on the absent database")
      storage.away = false
      #expect(try await client.get(Wire.Path.session, token: phone).status == .ok)
    }
  }
}
