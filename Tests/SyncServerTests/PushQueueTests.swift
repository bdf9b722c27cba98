import Foundation
import HTTPTypes
import HummingbirdTesting
import SyncServer
import SyncWire
import Testing

/// One household pushing from many devices at once reaches the storage (and its database
/// connections) at most `pushesPerHousehold` pushes at a time, while another household's
/// push goes straight through.
@Suite(.timeLimit(.minutes(1)))
struct PushQueueTests {
  @Test func aHouseholdsPushesReachTheStorageAFewAtATimeAndOthersAreNotHeldUp() async throws {
    let storage = SlowAppendStorage()
    // Smith's pushes hold their places at the database until Jones's reaches it: were
    // Jones's push queued behind them, the test would stop at its time limit.
    storage.heldUntilAnotherStarts = "Smith"
    let fixture = ServerFixture(storage: storage) { $0.pushesPerHousehold = 2 }
    var tokens: [String] = []
    for index in 0..<12 { tokens.append(try await fixture.token("Smith", device: "d\(index)")) }
    let smith = tokens
    let jones = try await fixture.token("Jones", device: "phone")
    let storageRef = storage
    try await fixture.test { client in
      async let busy: [HTTPResponse.Status] = withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
        for (index, token) in smith.enumerated() {
          group.addTask {
            try await client.push(batchBytes(id: "s\(index):1", replica: "s\(index)"), token: token, deviceSequence: 1).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      try await Task.sleep(for: .milliseconds(50))
      let other = try await client.push(batchBytes(id: "j:1", replica: "j"), token: jones, deviceSequence: 1)
      #expect(other.status == .created)
      #expect(try await busy.allSatisfy { $0 == .created })
      #expect(storageRef.mostAtOnce(household: "Smith") == 2)
    }
  }
}
