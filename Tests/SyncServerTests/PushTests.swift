import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Sync
import SyncServer
import SyncWire
import Testing

@Suite struct PushTests {
  @Test func pushesGetTheHouseholdsNextSequenceAndTheDevicesNumber() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    let laptop = try await fixture.token(device: "laptop")
    try await fixture.test { client in
      let first = try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1)
      #expect(first.status == .created)
      #expect(try first.decode(PushReceipt.self) == PushReceipt(sequence: 1, deviceSequence: 1, stored: true))
      let second = try await client.push(batchBytes(id: "b:1-1", replica: "b"), token: laptop, deviceSequence: 1)
      #expect(try second.decode(PushReceipt.self) == PushReceipt(sequence: 2, deviceSequence: 1, stored: true))
      let third = try await client.push(batchBytes(id: "a:2-2", replica: "a"), token: phone, deviceSequence: 2)
      #expect(try third.decode(PushReceipt.self) == PushReceipt(sequence: 3, deviceSequence: 2, stored: true))
    }
  }

  @Test func aRetryOfAStoredBatchIsAcknowledgedAndStoredOnce() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      let bytes = batchBytes(id: "a:1-1", replica: "a")
      _ = try await client.push(bytes, token: phone, deviceSequence: 1)
      let retry = try await client.push(bytes, token: phone, deviceSequence: 1)
      #expect(retry.status == .ok)
      #expect(try retry.decode(PushReceipt.self) == PushReceipt(sequence: 1, deviceSequence: 1, stored: false))
      // A retry sent with the number after (the client lost the answer and counted on) is the same batch.
      let lateRetry = try await client.push(bytes, token: phone, deviceSequence: 2)
      #expect(try lateRetry.decode(PushReceipt.self) == PushReceipt(sequence: 1, deviceSequence: 1, stored: false))
      let page = try await client.pull(token: phone).decode(PullPage.self)
      #expect(page.entries.map(\.sequence) == [1])
      #expect(page.entries.first?.batch == bytes)
    }
  }

  @Test func aGapInTheDevicesSequenceIsRefusedNamingTheNumberExpected() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      _ = try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1)
      let gap = try await client.push(batchBytes(id: "a:3-3", replica: "a"), token: phone, deviceSequence: 3)
      #expect(gap.status == .conflict)
      #expect(gap.refusal?.code == "device-sequence-gap")
      #expect(gap.refusal?.expectedDeviceSequence == 2)
      #expect(gap.refusal?.message.contains("batch 3 would skip 2") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.count == 1)
    }
  }

  @Test func aBatchBelowTheHouseholdsMinimumSchemaIsRefusedAskingForAnUpdate() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.admin.setMinimumSchema(household: "Smith", version: 3)
    await #expect(throws: ServerError.self) { try await fixture.admin.setMinimumSchema(household: "Smith", version: 0) }
    await #expect(throws: ServerError.self) { try await fixture.admin.setMinimumSchema(household: "Jones", version: 3) }
    try await fixture.test { client in
      let old = try await client.push(batchBytes(id: "a:1-1", replica: "a", schemaVersion: 2), token: phone, deviceSequence: 1)
      #expect(old.status == .conflict)
      #expect(old.refusal?.code == "schema-below-minimum")
      #expect(old.refusal?.message.contains("schema v3 or newer; device 'phone' pushes v2: update Forager") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.isEmpty)
      let current = try await client.push(batchBytes(id: "a:1-1", replica: "a", schemaVersion: 3), token: phone, deviceSequence: 1)
      #expect(current.status == .created)
    }
  }

  @Test func aNewBatchWithANumberAlreadyUsedIsRefused() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      _ = try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1)
      let reused = try await client.push(batchBytes(id: "a:2-2", replica: "a"), token: phone, deviceSequence: 1)
      #expect(reused.status == .conflict)
      #expect(reused.refusal?.code == "device-sequence-reused")
      #expect(reused.refusal?.expectedDeviceSequence == 2)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.count == 1)
    }
  }

  @Test func aDevicePushesOnlyAsItsOwnReplica() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token(device: "phone")
    try await fixture.test { client in
      _ = try await client.push(batchBytes(id: "a:1-1", replica: "a"), token: phone, deviceSequence: 1)
      let impostor = try await client.push(batchBytes(id: "b:1-1", replica: "b"), token: phone, deviceSequence: 2)
      #expect(impostor.status == .forbidden)
      #expect(impostor.refusal?.code == "wrong-replica")
      #expect(impostor.refusal?.message.contains("device 'phone' is replica 'a'") == true)
      #expect(try await client.pull(token: phone).decode(PullPage.self).entries.count == 1)
    }
  }

  @Test func concurrentPushesGetEverySequenceOnce() async throws {
    let fixture = ServerFixture()
    var tokens: [String] = []
    for device in 0..<4 { tokens.append(try await fixture.token(device: "device-\(device)")) }
    let all = tokens
    try await fixture.test { client in
      try await withThrowingTaskGroup(of: [Int64].self) { group in
        for (index, token) in all.enumerated() {
          group.addTask {
            var sequences: [Int64] = []
            for number in 1...20 {
              let response = try await client.push(
                batchBytes(id: "r\(index):\(number)", replica: "r\(index)"), token: token, deviceSequence: Int64(number))
              sequences.append(try response.decode(PushReceipt.self).sequence)
            }
            return sequences
          }
        }
        var seen: [Int64] = []
        for try await sequences in group { seen += sequences }
        #expect(seen.sorted() == Array(1...80))
      }
    }
  }
}
