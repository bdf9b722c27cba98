import Foundation
import HTTPTypes
import HummingbirdTesting
import ServerTestSupport
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// Storage whose appends from one device wait, once they have begun, until the test opens
/// the gate: a push that stays under way for as long as a test needs.
final class GatedAppendStorage: ForwardingStorage, @unchecked Sendable {
  let inner = MemoryHouseholdStorage()
  let gatedDevice: String
  private let gate = TestGate()
  private let (begun, began) = AsyncStream.makeStream(of: Void.self)

  init(gatedDevice: String) { self.gatedDevice = gatedDevice }

  /// Returns once a gated append has begun.
  func waitUntilAGatedAppendBegan() async {
    for await _ in begun { return }
  }

  func open() { gate.open() }

  func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    if credential.device == gatedDevice {
      began.yield()
      await gate.wait()
    }
    return try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }
}

/// The push route tells the live hub which pushes are under way: a commit made while
/// another push of the household is under way is announced when that one ends, with the
/// newest end, once.
@Suite(.timeLimit(.minutes(1)))
struct LivePushHoldTests {
  @Test func aCommitWhileAnotherPushIsUnderWayIsAnnouncedWhenItEnds() async throws {
    let storage = GatedAppendStorage(gatedDevice: "tablet")
    // A hold of ten seconds, twice the longest wait below: only the gated push's end can
    // release the announcement in time.
    let fixture = ServerFixture(storage: storage) { $0.liveHoldWhilePushing = .seconds(10) }
    let phone = try await fixture.token("Smith", device: "phone")
    let tablet = try await fixture.token("Smith", device: "tablet")
    let household = try #require(try await storage.household(named: "Smith")).id
    let subscription = try fixture.service.announcer.subscribe(household: household, token: "watcher", latest: 0)
    try await fixture.test { client in
      async let gated = client.push(batchBytes(id: "t:1", replica: "t"), token: tablet, deviceSequence: 1)
      await storage.waitUntilAGatedAppendBegan()
      let first = try await client.push(batchBytes(id: "p:1", replica: "p"), token: phone, deviceSequence: 1)
      #expect(first.status == .created)
      // Stored as 1, but the tablet's push is still under way: nothing is announced yet.
      #expect(await subscription.next(timeout: .milliseconds(50)) == .heartbeat(0))
      storage.open()
      #expect(try await gated.status == .created)
      #expect(await subscription.next(timeout: .seconds(5)) == .announce(2))
    }
    // A lone push is announced as it commits.
    try await fixture.test { client in
      let lone = try await client.push(batchBytes(id: "p:2", replica: "p"), token: phone, deviceSequence: 2)
      #expect(lone.status == .created)
      #expect(await subscription.next(timeout: .seconds(5)) == .announce(3))
    }
  }
}
