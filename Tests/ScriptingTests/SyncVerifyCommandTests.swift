import CommandLanguage
import Foundation
import Model
import Persistence
import Scripting
import Testing

@Suite("Sync verify")
struct SyncVerifyCommandTests {
  /// Two synced devices; the current one's category "Produce", its id and the id of "Dairy".
  static func syncedHarness() throws -> (harness: Harness, produce: Record, dairy: Record) {
    let harness = try Harness()
    try harness.run("cloud open --memory\ndevice add phone\ncategory add Produce\ncategory add Dairy\nsync all")
    let store = harness.session.current.store
    let (produce, dairy) = try store.read { reader in
      (try reader.records(.category, semanticKey: "produce").first, try reader.records(.category, semanticKey: "dairy").first)
    }
    return (harness, try #require(produce), try #require(dairy))
  }

  @Test func aSyncedDeviceVerifiesClean() throws {
    let (harness, _, _) = try Self.syncedHarness()
    for device in ["default", "phone"] {
      let result = try harness.json("sync verify --device \(device)")
      #expect(result["verify"]?.bool("clean") == true)
      #expect(result["verify"]?.int("checked") == 2)
      #expect(result.rows("differences").isEmpty)
    }
    #expect(try harness.text("sync verify").contains("the tables are the view of the sync state (2 records)"))
  }

  /// Rows written behind sync's back (origin `sync`, so nothing is logged or pushed): a
  /// renamed row, a deleted one and one no state names are each reported, then repaired.
  @Test func tablesEditedBehindSyncsBackAreReportedThenRepaired() throws {
    let (harness, produce, dairy) = try Self.syncedHarness()
    let store = harness.session.current.store
    let changesBefore = try store.read { try $0.latestChangeSequence() }
    var stray = produce
    stray.meta.id = UUID(uuidString: "00000000-0000-0000-0000-0000000000aa") ?? UUID()
    stray["displayName"] = .text("Stray")
    stray["normalizedName"] = .text("stray")
    try store.write(origin: .sync) { writer in
      var renamed = produce
      renamed["displayName"] = .text("Fruit")
      try writer.updateRecord(renamed)
      try writer.tombstoneRecord(.category, id: dairy.id, at: Harness.fixedNow)
      try writer.insertRecord(stray)
    }

    let error = try #require(harness.error("sync verify"))
    #expect(error.kind == .failed)
    #expect(error.description.contains("3 record(s) differ from the sync state"))
    let reported = try #require(error.result?.json(command: "sync verify"))
    let rows = reported.rows("differences").map { [$0.string("id"), $0.string("field"), $0.string("table"), $0.string("expected")] }
    #expect(rows.contains([produce.id.lowercaseText, "displayName", "\"Fruit\"", "\"Produce\""]))
    #expect(rows.contains([dairy.id.lowercaseText, "@row", "tombstone", "live"]))
    #expect(rows.contains([stray.id.lowercaseText, "@row", "live", "no live row (no state)"]))

    let repair = try harness.json("sync verify --repair")
    #expect(repair["verify"]?.int("repaired") == 3)
    #expect(repair["verify"]?.bool("clean") == true)
    #expect(repair.rows("differences").count == 3, "the repair lists what it rewrote")
    #expect(try harness.json("sync verify")["verify"]?.bool("clean") == true)
    let names = try store.read { reader in try reader.fetch(RecordQuery(.category)).map { $0["displayName"] } }
    #expect(Set(names) == [.text("Produce"), .text("Dairy")])
    // The repair wrote with origin sync: nothing logged, nothing to push.
    #expect(try store.read { try $0.latestChangeSequence() } == changesBefore)
    #expect(try harness.json("sync status").rows("devices").map { $0.int("pending") } == [0, 0])
  }

  @Test func localChangesNotYetSyncedAreLeftOutAndRepairWaitsForThem() throws {
    let (harness, _, _) = try Self.syncedHarness()
    try harness.run("category rename Produce to Fruit")
    let result = try harness.json("sync verify")
    #expect(result["verify"]?.int("unstamped") == 1)
    #expect(result["verify"]?.bool("clean") == true)
    try harness.expectFailure("sync verify --repair", .failed, mentions: ["--repair", "not yet in the sync state", "nothing changed"])
    try harness.run("sync")
    #expect(try harness.json("sync verify --repair")["verify"]?.int("repaired") == 0)
  }

  @Test func anUnknownDeviceIsAClearError() throws {
    let harness = try Harness()
    try harness.expectFailure("sync verify --device nobody", .failed, mentions: ["--device", "nobody"])
  }

  /// The local index of merge edges is held to the states too: an entry lost behind sync's
  /// back is reported against the merged record and written again by a repair.
  @Test func aLostMergeEdgeEntryIsReportedThenRepaired() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      recipe add Soup --ingredient onion
      recipe add "Onion soup" --ingredient onion
      recipe merge Soup into "Onion soup"
      sync all
      """)
    let store = harness.session.current.store
    let edges = try store.read { try $0.metadataKeys(withPrefix: "sync.edge/") }
    let edge = try #require(edges.first)
    try store.write(origin: .sync) { try $0.setMetadata(nil, forKey: edge) }

    let error = try #require(harness.error("sync verify"))
    let reported = try #require(error.result?.json(command: "sync verify"))
    let loser = String(edge.split(separator: "/").last ?? "")
    let rows = reported.rows("differences").map { [$0.string("id"), $0.string("field"), $0.string("table")] }
    #expect(rows == [[loser, "@sync.edge", "no entry"]], "\(rows)")

    let repair = try harness.json("sync verify --repair")
    #expect(repair["verify"]?.bool("clean") == true)
    #expect(try store.read { try $0.metadataKeys(withPrefix: "sync.edge/") } == edges)
    #expect(try harness.json("sync verify")["verify"]?.bool("clean") == true)
  }

  /// A template deleted here while the only line naming it is already hidden (its recipe
  /// deleted and synced before, so nothing denies the delete): the line is noted as
  /// depending on the template as well, though the delete reached the rows before the sync
  /// computed the view.
  @Test func aRecordDeletedHereIsNotedByTheHiddenRecordsThatNameIt() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      recipe add Soup --ingredient lemon
      sync all
      recipe delete Soup
      sync all
      ingredient delete lemon
      sync all
      """)
    let verification = try harness.json("sync verify")
    let rows = verification.rows("differences").map { [$0.string("id"), $0.string("field"), $0.string("table")] }
    #expect(verification["verify"]?.bool("clean") == true, "\(rows)")
    let store = harness.session.current.store
    let entries = try store.read { try $0.metadataKeys(withPrefix: "sync.ref/ingredientTemplate/") }
    #expect(entries.contains { $0.contains("/recipeIngredient/") }, "\(entries)")
  }
}
