import Foundation
import Model
import Repositories
import Scripting
import Sync
import TestSupport
import Testing

@Suite("Sync commands")
struct SyncCommandTests {
  @Test func devicesSyncThroughAMemoryCloudToOneRecordPerName() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      category add Produce
      ingredient add basil --category produce
      device use phone
      category add "  PRODUCE "
      ingredient add BASIL
      """)
    let result = try harness.json("sync all")
    #expect(result["settled"] == .bool(true))
    #expect(result.rows("devices").map { $0.string("device") } == ["default", "phone"])
    for device in ["default", "phone"] {
      try harness.run("device use \(device)")
      #expect(try harness.count(.category) == 1)
      #expect(try harness.count(.ingredientTemplate) == 1)
    }
  }

  @Test func anOfflineDeviceKeepsItsChangesUntilItComesBack() throws {
    let harness = try Harness()
    try harness.run(
      "cloud open --memory\ndevice add phone\ndevice offline phone\ndevice use phone\ncategory add Dairy\ncategory add Bakery")
    try harness.expectFailure("sync", .failed, mentions: ["sync", "offline", "2 change(s) waiting", "device online phone"])
    let all = try harness.json("sync all")
    #expect(all.rows("devices").map { $0.string("device") } == ["default"])
    let status = try harness.json("sync status").rows("devices")
    #expect(status.map { $0.string("state") } == ["online", "offline"])
    #expect(status.map { $0.int("pending") } == [0, 2])
    try harness.run("device online phone\nsync all\ndevice use default")
    #expect(try harness.count(.category) == 2)
  }

  @Test func syncWithoutACloudOrWithABadOneIsAClearError() throws {
    let harness = try Harness()
    try harness.expectFailure("sync", .failed, mentions: ["sync", "no cloud", "cloud open"])
    try harness.expectFailure("cloud open", .usage, mentions: ["cloud open", "path", "--memory"])
    try harness.expectFailure("cloud open /tmp/x.sqlite --memory", .usage, mentions: ["not both"])
    try harness.expectFailure("sync --device nobody", .failed, mentions: ["--device", "nobody"])
    try harness.expectFailure("sync status --events 500", .usage, mentions: ["--events"])
    let notACloud = try TemporaryDirectory.make().appendingPathComponent("store.sqlite").path
    try harness.run("device add other --store \(notACloud)")
    try harness.expectFailure("cloud open \(notACloud)", .failed, mentions: ["cloud open", "not a Forager cloud"])
  }

  @Test func aServerCloudWithoutAUsableTokenOrServerIsAClearErrorAndChangesNothing() throws {
    let harness = try Harness()
    try harness.run("cloud open --memory")
    let directory = try TemporaryDirectory.make()
    let missing = directory.appendingPathComponent("none.token").path
    try harness.expectFailure("cloud open http://127.0.0.1:9 --token-file \(missing)", .failed, mentions: ["--token-file", "no such file"])
    let empty = directory.appendingPathComponent("empty.token")
    try Data("\n".utf8).write(to: empty)
    try harness.expectFailure("cloud open http://127.0.0.1:9 --token-file \(empty.path)", .failed, mentions: ["does not hold a token"])
    let large = directory.appendingPathComponent("large.token")
    try Data(repeating: 65, count: 10_000).write(to: large)
    try harness.expectFailure(
      "cloud open http://127.0.0.1:9 --token-file \(large.path)", .failed, mentions: ["not a token file", "10000 bytes"])
    let token = directory.appendingPathComponent("phone.token")
    try Data(("fgr1_" + String(repeating: "A", count: 43) + "\n").utf8).write(to: token)
    // Port 9 (discard) has no server on loopback: the cloud cannot open, and the memory
    // cloud stays the session's.
    try harness.expectFailure(
      "cloud open http://127.0.0.1:9 --token-file \(token.path)", .failed, mentions: ["cannot reach the server", "nothing changed"])
    try harness.expectFailure(
      "cloud open http://127.0.0.1:9 --token-file \(token.path) --device tablet", .failed, mentions: ["--device", "tablet"])
    try harness.expectFailure("cloud open --memory --token-file \(token.path)", .failed, mentions: ["--token-file", "sync server"])
    try harness.expectFailure("cloud open ftp://example --token-file \(token.path)", .failed, mentions: ["--token-file", "sync server"])
    #expect(harness.session.cloud(for: harness.session.current)?.location == "memory")
  }

  @Test func aCloudFileIsSharedBySessionsAsByProcesses() throws {
    let cloud = try TemporaryDirectory.make().appendingPathComponent("cloud.sqlite").path
    let kitchen = try Harness()
    try kitchen.run("cloud open \(cloud)\nseed defaults\nrecipe add Soup --ingredient onion\nsync")
    let phone = try Harness()
    try phone.run("cloud open \(cloud)\nseed defaults\nsync\nsync")
    #expect(try phone.count(.category) == 7)
    #expect(try phone.count(.recipe) == 1)
    let status = try phone.json("sync status")
    // Both sessions call their device "default": the replica tells them apart.
    guard case .array(let devices)? = status["cloud"]?["devices"] else {
      Issue.record("no devices in \(status)")
      return
    }
    let shown = devices.compactMap { value -> String? in if case .string(let text) = value { text } else { nil } }
    #expect(shown.count == 2 && Set(shown).count == 2, "\(shown)")
    #expect(shown.allSatisfy { $0.wholeMatch(of: /default \(replica [0-9a-f-]{8}, schema v6\)/) != nil }, "\(shown)")
    #expect(!status.rows("events").isEmpty)
  }

  @Test func renamingOntoANameCreatedOnAnotherDeviceMergesThem() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      category add Veg
      ingredient add carrot --category Veg
      sync all
      category rename Veg to Produce
      device use phone
      ingredient add apple --category Produce
      """)
    let result = try harness.json("sync all")
    let merges = result.rows("devices").compactMap { $0.int("merges") }.reduce(0, +)
    #expect(merges >= 1)
    try harness.run("device use default")
    #expect(try harness.count(.category) == 1)
    #expect(try harness.json("duplicates").rows("duplicates").isEmpty)
  }

  @Test func syncIsRefusedInsideAnAtomicRun() throws {
    let session = try Session(location: "memory")
    var errors: [String] = []
    let runner = ScriptRunner(
      session: session, options: .init(atomic: true), scriptName: "s.forager", output: { _ in }, diagnostics: { errors.append($0) })
    let report = runner.run("cloud open --memory\ncategory add Produce\nsync")
    #expect(report.status == .commandFailed)
    #expect(errors.contains { $0.contains("s.forager:3") && $0.contains("--atomic") })
    #expect(try session.library.counts()[.category] == 0)
  }
}

@Suite("Sync commands inside transactions")
struct SyncInsideTransactionTests {
  @Test func syncUnderExpectFailsIsRefusedInsteadOfDeadlocking() throws {
    let harness = try Harness()
    try harness.run("cloud open --memory\ncategory add Produce")
    try harness.run("expect fails sync")
    try harness.run("sync")
    #expect(try harness.json("sync status").rows("devices").first?.int("pending") == 0)
  }
}
