import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Sync
import SyncServer
import SyncWire
import Testing

/// The routes against a device that tries to take over, wedge or flood its household: each
/// refusal's status, code and message, nothing written, and the honest devices going on.
@Suite struct HostileDeviceRouteTests {
  @Test func aFreshTokenCannotRegisterAnotherDevicesReplica() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    let tablet = try await fixture.token(device: "tablet")
    try await fixture.test { (client) async throws -> Void in
      #expect(try await client.register(registration(replica: "a"), token: phone).status == .ok)
      let takeover = try await client.register(registration(replica: "a", name: "phone"), token: tablet)
      #expect(takeover.status == .conflict)
      #expect(takeover.refusal?.code == "replica-taken")
      #expect(takeover.refusal?.message.hasPrefix("replica 'a' belongs to device 'phone' of this household; device 'tablet'") == true)
      let registry = try await client.get(Wire.Path.devices, token: phone).decode(DeviceList.self)
      #expect(registry.devices.map(\.device) == ["phone", "tablet"])
      #expect(registry.devices.map(\.replicaID) == ["a", nil])
      // The tablet registers as itself.
      #expect(try await client.register(registration(replica: "t", name: "tablet"), token: tablet).status == .ok)
    }
  }

  @Test func aFreshTokenCannotPushAsAnotherDevicesReplica() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    let tablet = try await fixture.token(device: "tablet")
    try await fixture.test { (client) async throws -> Void in
      #expect(try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1).status == .created)
      let takeover = try await client.push(batchBytes(id: "a:2-2", replica: "a"), token: tablet, deviceSequence: 1)
      #expect(takeover.status == .conflict)
      #expect(takeover.refusal?.code == "replica-taken")
      #expect(takeover.refusal?.message.contains("replica 'a' belongs to device 'phone'") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.count == 1)
      let session = try await client.get(Wire.Path.session, token: tablet).decode(SessionInfo.self)
      #expect(session.replicaID == nil && session.deviceSequence == 0)
      // The phone's own next batch goes through.
      let next = try await client.push(batchBytes(id: "a:2-2", replica: "a"), token: phone, deviceSequence: 2)
      #expect(try next.decode(PushReceipt.self) == PushReceipt(sequence: 2, deviceSequence: 2, stored: true))
    }
  }

  @Test func aDeviceCannotPushAnotherDevicesNextBatchIDFirst() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    let laptop = try await fixture.token(device: "laptop")
    try await fixture.test { (client) async throws -> Void in
      _ = try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1)
      let squat = try await client.push(batchBytes(id: "a:2-2", replica: "b"), token: laptop, deviceSequence: 1)
      #expect(squat.status == .unprocessableContent)
      #expect(squat.refusal?.code == "batch-id-invalid")
      #expect(squat.refusal?.message.hasPrefix("batch id 'a:2-2' does not start with its replica 'b' and ':'") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.count == 1)
      let next = try await client.push(batchBytes(id: "a:2-2", replica: "a"), token: phone, deviceSequence: 2)
      #expect(next.status == .created)
      #expect(try await client.push(batchBytes(id: "b:1-1", replica: "b"), token: laptop, deviceSequence: 1).status == .created)
    }
  }

  @Test func newerSchemaBatchesPastTheCountQuotaAreRefused() async throws {
    let fixture = ServerFixture(heldBatchCount: 2)
    let phone = try await fixture.token(device: "phone")
    let laptop = try await fixture.token(device: "laptop")
    try await fixture.test { (client) async throws -> Void in
      for number in 1...2 {
        let held = batchBytes(id: "a:\(number)", replica: "a", schemaVersion: 7, kind: "pantries")
        #expect(try await client.push(held, token: phone, deviceSequence: Int64(number)).status == .created)
      }
      let flood = try await client.push(batchBytes(id: "a:3", replica: "a", schemaVersion: 7), token: phone, deviceSequence: 3)
      #expect(flood.status == .tooManyRequests)
      #expect(flood.refusal?.code == "held-quota-count")
      #expect(flood.refusal?.message.contains("already holds 2 batches") == true)
      #expect(flood.refusal?.message.contains("forager-server held-batches") == true)
      #expect(try await client.pull(token: laptop).decode(PullPage.self).latestSequence == 2)
      // Honest devices push and pull on.
      #expect(try await client.push(batchBytes(id: "b:1", replica: "b"), token: laptop, deviceSequence: 1).status == .created)
      #expect(try await client.push(batchBytes(id: "a:3", replica: "a"), token: phone, deviceSequence: 3).status == .created)
      #expect(try await client.pull(token: laptop).decode(PullPage.self).entries.map(\.sequence) == [1, 2, 3, 4])
    }
  }

  @Test func newerSchemaBatchesPastTheByteQuotaAreRefused() async throws {
    let size = batchBytes(id: "a:1", replica: "a", schemaVersion: 7).count
    let fixture = ServerFixture(heldBatchBytes: 2 * size + size / 2)
    let phone = try await fixture.token(device: "phone")
    try await fixture.test { (client) async throws -> Void in
      for number in 1...2 {
        #expect(
          try await client.push(batchBytes(id: "a:\(number)", replica: "a", schemaVersion: 7), token: phone, deviceSequence: Int64(number))
            .status == .created)
      }
      let flood = try await client.push(batchBytes(id: "a:3", replica: "a", schemaVersion: 7), token: phone, deviceSequence: 3)
      #expect(flood.status == .contentTooLarge)
      #expect(flood.refusal?.code == "held-quota-bytes")
      #expect(flood.refusal?.message.contains("already holds 2 batches (\(2 * size) bytes)") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).latestSequence == 2)
      // Retiring one makes room; the notice reaches every device's pull.
      let retired = try await fixture.admin.retireBatch(household: "Smith", sequence: 1)
      #expect(retired.noticeSequence == 3)
      #expect(
        try await client.push(batchBytes(id: "a:3", replica: "a", schemaVersion: 7), token: phone, deviceSequence: 3).status == .created)
      let page = try await client.pull(token: phone).decode(PullPage.self)
      #expect(page.entries.map(\.sequence) == [1, 2, 3, 4])
      #expect(try ChangeBatchCoding.decode(page.entries[0].batch) == ChangeBatch(id: "a:1", replica: "a", schemaVersion: 6, changes: []))
      #expect(
        try ChangeBatchCoding.decode(page.entries[2].batch) == ChangeBatch(id: "retired:1", replica: "", schemaVersion: 6, changes: []))
    }
  }

  @Test func heldBatchesAreListedAndRetiredByTheOperator() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    let laptop = try await fixture.token(device: "laptop")
    let pushedAt = fixture.clock.now
    let held = batchBytes(id: "a:1", replica: "a", schemaVersion: 7, kind: "pantries")
    try await fixture.test { (client) async throws -> Void in
      #expect(try await client.register(registration(replica: "a", schemaVersion: 7), token: phone).status == .ok)
      #expect(try await client.push(held, token: phone, deviceSequence: 1).status == .created)
      #expect(try await client.push(batchBytes(id: "b:1", replica: "b"), token: laptop, deviceSequence: 1).status == .created)
    }
    #expect(
      try await fixture.admin.heldBatches(household: "Smith") == [
        HeldBatchEntry(sequence: 1, device: "phone", batchID: "a:1", replica: "a", schemaVersion: 7, bytes: held.count, pushedAt: pushedAt)
      ])
    await #expect(throws: ServerError.self) { try await fixture.admin.heldBatches(household: "Jones") }
    await #expect(throws: ServerError.self) { try await fixture.admin.retireBatch(household: "Smith", sequence: 2) }
    // The laptop upgrades: it may have applied the batch, so retiring it needs --force.
    try await fixture.test { (client) async throws -> Void in
      #expect(try await client.register(registration(replica: "b", name: "laptop", schemaVersion: 7), token: laptop).status == .ok)
    }
    let refused = await #expect(throws: ServerError.self) { try await fixture.admin.retireBatch(household: "Smith", sequence: 1) }
    #expect(refused?.code == "retire-needs-force")
    #expect(refused?.message.contains("device(s) 'laptop' registered v7 or newer") == true)
    #expect(try await fixture.admin.heldBatches(household: "Smith").count == 1)
    let smith = try #require(await fixture.storage.household(named: "Smith"))
    #expect(await fixture.storage.latestSequence(of: smith.id) == 2)
    let retired = try await fixture.admin.retireBatch(household: "Smith", sequence: 1, force: true)
    #expect(retired.noticeSequence == 3)
    #expect(try await fixture.admin.heldBatches(household: "Smith").isEmpty)
  }
}
