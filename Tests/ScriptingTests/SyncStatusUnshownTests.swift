import CommandLanguage
import Foundation
import Model
import Persistence
import Repositories
import Scripting
import TestSupport
import Testing

@testable import Sync

/// `sync status` names the records a device does not show because their synced values
/// break today's rules (Docs/SYNC.md, "Refusals and limits").
@Suite("Sync status: records not shown")
struct SyncStatusUnshownTests {
  @Test func statusNamesARecordWhoseSyncedValuesBreakTheRules() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      category add Produce
      category add Dairy
      sync all
      """)
    let phone = try #require(harness.session.devices.first { $0.name == "phone" })
    let id = try #require(try phone.library.categories.find("Produce")?.id)
    // A name an earlier build with looser rules could have stored (a control character).
    try phone.store.write(origin: .sync) { writer in
      let states = try StateStore(writer)
      var state = try #require(try states.state(RecordKey(kind: .category, id: id)))
      let name = try #require(state["displayName"])
      state.replace("displayName", with: StampedValue(value: .text("Produce\u{1}"), stamp: name.stamp))
      _ = try states.set(state)
      try states.flush()
    }
    try harness.run("category move Dairy --before Produce\nsync all")

    let status = try harness.json("sync status")
    let unshown = status.rows("unshown")
    #expect(unshown.count == 1, "\(status)")
    #expect(unshown.first?["device"] == .string("phone"))
    #expect(unshown.first?["id"] == .string(id.uuidString.lowercased()))
    guard case .string(let reason)? = unshown.first?["reason"] else {
      Issue.record("no reason in \(unshown)")
      return
    }
    #expect(reason.hasPrefix("displayName"), "\(reason)")
    let text = try harness.text("sync status")
    #expect(text.contains("phone does not show 1 record(s)"), "\(text)")
  }
}
