import Foundation
import HTTPTypes
import HummingbirdTesting
import Model
import Sync
import SyncServer
import SyncWire
import Testing

/// The server takes texts in any Unicode form and keeps them as sent: every device puts a
/// pulled text into NFC before joining it (Docs/SYNC.md, "Text is stored in one form
/// (NFC)"), so refusing a decomposed text would only shut out a device of an earlier
/// version that does not normalize.
@Suite struct DecomposedTextDoorTests {
  @Test func aDecomposedTextIsTakenAndKeptAsSent() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    let fields = ChangeCheckTests.name("Cre\u{300}me bru\u{302}le\u{301}e")
    let change = RecordChange(
      kind: .category, id: ChangeCheckTests.id, createdAt: Date(timeIntervalSince1970: 1_700_000_000),
      updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "zoe\u{308}", sharingScope: .private, fields: fields)
    let batch = ChangeBatch(id: "a:1-1", replica: "a", schemaVersion: 3, changes: [change])
    try await fixture.test { client in
      let response = try await client.push(ChangeBatchCoding.encode(batch), token: phone, deviceSequence: 1)
      #expect(response.status == .created, "\(response.refusal?.message ?? "")")
      let page = try await client.pull(token: phone).decode(PullPage.self)
      let stored = try ChangeBatchCoding.decode(try #require(page.entries.first).batch)
      #expect(stored == batch)  // byte for byte: FieldValue compares texts by their UTF-8
      #expect(Array(stored.changes[0].ownerID.utf8) == Array("zoe\u{308}".utf8))
    }
  }
}
