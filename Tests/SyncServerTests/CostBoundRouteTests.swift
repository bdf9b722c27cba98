import Foundation
import HTTPTypes
import HummingbirdTesting
import Model
import Sync
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The door bounds a batch by what it costs once expanded, not by its size on the wire: the
/// batch format writes each string once, so references to one paragraph are small as sent
/// and large for every device after. Nothing of a refused batch is stored.
@Suite struct CostBoundRouteTests {
  static let now: Int64 = 1_800_000_000_000

  static func recipe(_ instructions: [String]) -> RecordChange {
    let stamp = Stamp(time: now - 1_000, counter: 0, replica: "a")
    return RecordChange(
      kind: .recipe, id: UUID(), createdAt: Date(timeIntervalSince1970: 1_700_000_000),
      updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "local", sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
        "displayName": StampedValue(value: .text("Soup"), stamp: stamp),
        "titleKey": StampedValue(value: .text("soup"), stamp: stamp),
        "recipeInstructions": StampedValue(value: .textList(instructions), stamp: stamp),
      ])
  }

  static func bytes(_ changes: [RecordChange]) -> Data {
    ChangeBatchCoding.encode(ChangeBatch(id: "a:1-\(changes.count)", replica: "a", schemaVersion: 3, changes: changes))
  }

  @Test func aChangePastTheRecordBudgetOnceExpandedIsRefused() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let body = Self.bytes([Self.recipe(Array(repeating: String(repeating: "Stir. ", count: 200), count: 2_000))])
    #expect(body.count < 50_000)
    try await fixture.test { client in
      let response = try await client.push(body, token: phone, deviceSequence: 1)
      #expect(response.status == .unprocessableContent)
      #expect(response.refusal?.code == "change-invalid")
      #expect(response.refusal?.message.contains("field 'recipeInstructions' holds") == true, "\(response.refusal?.message ?? "")")
    }
    let household = try #require(await fixture.storage.household(named: "Smith"))
    #expect(await fixture.storage.latestSequence(of: household.id) == 0)
  }

  @Test func aBatchPastItsBudgetOnceExpandedIsRefusedAsTooCostly() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let paragraph = String(repeating: "Whisk. ", count: 1_400)
    let body = Self.bytes((0..<20).map { _ in Self.recipe(Array(repeating: paragraph, count: 100)) })
    #expect(body.count < 100_000)
    try await fixture.test { client in
      let response = try await client.push(body, token: phone, deviceSequence: 1)
      #expect(response.status == .contentTooLarge)
      #expect(response.refusal?.code == "batch-too-costly")
      #expect(response.refusal?.message.contains("once expanded") == true)
    }
  }
}
