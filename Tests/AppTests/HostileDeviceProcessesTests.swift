import Foundation
import Model
import ServerTestSupport
import Sync
import SyncHTTP
import TestSupport
import Testing

/// A stolen device token pushes what a buggy or hostile phone would to a real
/// `forager-server` process on PostgreSQL, while the household's honest devices are
/// `forager-batch` processes: every bad batch is refused at the door, and the devices
/// still sync and converge.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct HostileDeviceProcessesTests {
  static func change(createdAt: Date = Date(timeIntervalSince1970: 1_700_000_000), name: String, stamp: Stamp) -> RecordChange {
    RecordChange(
      kind: .category, id: UUID(), createdAt: createdAt, updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "local",
      sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
        "displayName": StampedValue(value: .text(name), stamp: stamp),
        "normalizedName": StampedValue(value: .text(name.lowercased()), stamp: stamp),
      ])
  }

  @Test func aStolenTokensHostileBatchesAreRefusedAndTheHouseholdsDevicesConverge() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone", "laptop", "stolen"])
    let server = try ServerProcess(databaseURL: database, directory: directory, name: "one")
    defer { server.stop() }
    func open(_ device: String) -> String {
      "cloud open \(server.url) --token-file \(directory.appendingPathComponent("\(device).token").path)"
    }
    let phone = directory.appendingPathComponent("phone.sqlite")
    let laptop = directory.appendingPathComponent("laptop.sqlite")
    var run = try ServerProcessesTests.batch(phone, "\(open("phone"))\ncategory add Produce\nsync\n")
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")

    let secret = try String(contentsOf: directory.appendingPathComponent("stolen.token"), encoding: .utf8)
    let stolen = try HTTPCloud(url: server.url, token: secret, timeout: .seconds(10))
    let evil = "stolen-replica"
    let past = Stamp(time: 1_700_000_000_000, counter: 0, replica: evil)
    let attacks: [(String, RecordChange, String)] = [
      ("NaN creation time", Self.change(createdAt: Date(timeIntervalSince1970: .nan), name: "Poison", stamp: past), "change-invalid"),
      ("end-of-time stamp", Self.change(name: "Forever", stamp: Stamp(time: .max, counter: .max, replica: evil)), "stamp-invalid"),
      (
        "a year ahead", Self.change(name: "Future", stamp: Stamp(time: past.time + 10 * 365 * 86_400_000, counter: 0, replica: evil)),
        "clock-ahead"
      ),
      (
        "another replica's stamp", Self.change(name: "Forged", stamp: Stamp(time: past.time, counter: 0, replica: "phone")), "stamp-invalid"
      ),
      ("3,000,000 characters", Self.change(name: String(repeating: "x", count: 3_000_000), stamp: past), "change-invalid"),
      ("an escape sequence", Self.change(name: "Dairy\u{1B}[2J", stamp: past), "change-invalid"),
    ]
    for (number, (what, attack, code)) in attacks.enumerated() {
      let batch = ChangeBatch(id: "\(evil):\(number + 1)-\(number + 1)", replica: evil, schemaVersion: 3, changes: [attack])
      do {
        _ = try stolen.push(batch)
        Issue.record("\(what): the server took it")
      } catch HTTPCloudError.refused(let status, let refusal, let message) {
        #expect(status == 422 && refusal == code, "\(what): \(status) \(refusal): \(message)")
      }
    }
    #expect(try stolen.latestSequence() == 1)  // the phone's batch alone

    run = try ServerProcessesTests.batch(
      laptop, "\(open("laptop"))\ncategory add Bakery\nsync\nexpect count category 2\nsync status\n")
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(run.stdout.contains("ASIDE") && !run.stdout.contains("set aside"), "\(run.stdout)")
    run = try ServerProcessesTests.batch(
      phone, "\(open("phone"))\nsync\nexpect count category 2\nexpect field category bakery displayName Bakery\n")
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
  }
}
