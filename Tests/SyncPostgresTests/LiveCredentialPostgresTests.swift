import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncWire
import Testing

/// A live stream on one server ends within a second of its token's revocation or its
/// household's deletion made by another process on the database: the change reaches the
/// server as a `forager_credentials` notification, which makes it look the stream's token up
/// again.
@Suite(.timeLimit(.minutes(2))) struct LiveCredentialPostgresTests {
  /// Serves the routes over `storage` while it watches credential changes, opens a live
  /// stream of a Smith device's token, runs `act` with another process's administration once
  /// the stream is open, and returns the stream's text and how long after `act` it ended.
  static func streamEnding(
    _ storage: PostgresHouseholdStorage, _ location: PostgresLocation,
    after act: @escaping @Sendable (Administration) async throws -> Void
  ) async throws -> (text: String, seconds: Double) {
    let service = SyncService(storage: storage, logger: Logger(label: "test"))
    let admin = Administration(storage: storage)
    _ = try await admin.addHousehold("Smith")
    let token = try await admin.issueToken(household: "Smith", device: "phone").token.secret
    let announcer = service.announcer
    let (listening, heard) = AsyncStream.makeStream(of: Void.self)
    return try await withThrowingTaskGroup(of: (String, Double)?.self) { group in
      group.addTask {
        await storage.watchCredentialChanges(onChange: {
          heard.yield()
          announcer.credentialsChanged()
        })
        return nil
      }
      for await _ in listening { break }
      let ended = try await Application(router: service.router()).test(.router) { client in
        try await withThrowingTaskGroup(of: (String, ContinuousClock.Instant).self) { streams in
          streams.addTask {
            var fields = HTTPFields()
            fields[.authorization] = "Bearer \(token)"
            let response = try await client.execute(uri: Wire.Path.live, method: .get, headers: fields)
            return (String(buffer: response.body), .now)
          }
          for _ in 0..<500 where announcer.count == 0 { try await Task.sleep(for: .milliseconds(10)) }
          try #require(announcer.count == 1)
          let acted = ContinuousClock.now
          try await location.withRunningClient { client in try await act(Administration(storage: PostgresHouseholdStorage(client: client)))
          }
          let (text, at) = try #require(try await streams.next())
          let elapsed = (at - acted).components
          return (text, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
      }
      group.cancelAll()
      return ended
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aStreamEndsSoonAfterItsTokensRevocationByAnotherProcess() async throws {
    try await withPostgres { _, storage, location in
      let (text, seconds) = try await Self.streamEnding(storage, location) { (admin) async throws -> Void in
        #expect(try await admin.revokeTokens(household: "Smith", device: "phone") == 1)
      }
      #expect(text.contains("event: closing\ndata: {\"reason\":\"token-revoked\"}"), "\(text)")
      #expect(seconds < LiveCredentialBound.seconds, "the stream ended \(seconds) s after the revocation")
    }
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func aStreamEndsSoonAfterItsHouseholdsDeletionByAnotherProcess() async throws {
    try await withPostgres { _, storage, location in
      let (text, seconds) = try await Self.streamEnding(storage, location) { (admin) async throws -> Void in
        _ = try await admin.deleteHousehold("Smith")
      }
      #expect(text.contains("event: closing\ndata: {\"reason\":\"token-unknown\"}"), "\(text)")
      #expect(seconds < LiveCredentialBound.seconds, "the stream ended \(seconds) s after the deletion")
    }
  }
}

/// How soon a stream must end after another process changes its credential: well past the
/// credential watcher's notice and the check's 250 ms interval on a machine busy with other
/// tests, and far below a stream that is never ended (it stays open).
enum LiveCredentialBound {
  static let seconds = 5.0
}
