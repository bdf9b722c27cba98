import Foundation
import Model
import Repositories
import ServerTestSupport
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import TestSupport
import Testing

/// One device token plays a buggy or hostile phone against a real server on loopback: each
/// bad batch it pushes is refused at the door with the rule's code, nothing of it enters the
/// log, and the household's honest devices still sync and converge.
@Suite(.timeLimit(.minutes(10)))
struct HostileDeviceTests {
  static let evil = "evil-replica"

  static let honestStamp = Stamp(time: 1_700_000_000_000, counter: 0, replica: evil)

  static func change(
    createdAt: Date = Date(timeIntervalSince1970: 1_700_000_000), name: String = "Poison", stamp: Stamp = honestStamp
  ) -> RecordChange {
    RecordChange(
      kind: .category, id: UUID(), createdAt: createdAt, updatedAt: Date(timeIntervalSince1970: 1_700_000_000), ownerID: "local",
      sharingScope: .private,
      fields: [
        RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
        "displayName": StampedValue(value: .text(name), stamp: stamp),
        "normalizedName": StampedValue(value: .text(name.lowercased()), stamp: stamp),
      ])
  }

  static func checkHostilePushesAreRefusedAndHonestDevicesConverge(_ storage: any HouseholdStorage) async throws {
    let secrets = try await tokens(storage, devices: ["phone", "laptop", "stolen"])
    try await withServer(storage) { url, _ in
      try await onThread {
        let clock = TickingClock()
        let phone = try Device("phone", cloud: HTTPCloud(url: url, token: secrets[0], timeout: .seconds(10)), clock: clock, seed: 1)
        let laptop = try Device("laptop", cloud: HTTPCloud(url: url, token: secrets[1], timeout: .seconds(10)), clock: clock, seed: 2)
        _ = try phone.library.categories.getOrCreate("Produce")
        try phone.engine.sync()
        try laptop.engine.sync()
        let before = try phone.engine.cloud.latestSequence()

        let stolen = try HTTPCloud(url: url, token: secrets[2], timeout: .seconds(10))
        let phoneReplica = try phone.engine.replicaID()
        let attacks: [(String, RecordChange, String)] = [
          ("NaN creation time", change(createdAt: Date(timeIntervalSince1970: .nan)), "change-invalid"),
          ("infinite creation time", change(createdAt: Date(timeIntervalSince1970: .infinity)), "change-invalid"),
          ("end-of-time stamp", change(stamp: Stamp(time: .max, counter: .max, replica: evil)), "stamp-invalid"),
          ("far-future stamp", change(stamp: Stamp(time: .max - 1, counter: 0, replica: evil)), "clock-ahead"),
          ("another device's stamp", change(stamp: Stamp(time: 1_700_000_000_000, counter: 0, replica: phoneReplica)), "stamp-invalid"),
          ("oversized name", change(name: String(repeating: "n", count: 300_000)), "change-invalid"),
          ("control characters", change(name: "Pro\u{1B}[2Jduce"), "change-invalid"),
          ("bidi override", change(name: "\u{202E}ecudorP"), "change-invalid"),
        ]
        for (number, (what, attack, code)) in attacks.enumerated() {
          let batch = ChangeBatch(id: "\(evil):\(number + 1)-\(number + 1)", replica: evil, schemaVersion: 3, changes: [attack])
          do {
            _ = try stolen.push(batch)
            Issue.record("\(what): the server took it")
          } catch HTTPCloudError.refused(let status, let refusal, let message) {
            #expect(status == 422 && refusal == code, "\(what): \(refusal) \(message)")
            #expect(message.contains("change 1: category"), "\(what): \(message)")
          }
        }
        #expect(try phone.engine.cloud.latestSequence() == before)  // nothing entered the log

        _ = try laptop.library.categories.getOrCreate("Dairy")
        _ = try phone.library.categories.getOrCreate("Bakery")
        for device in [laptop, phone, laptop] { try device.engine.sync() }
        #expect(try phone.view() == ["category Bakery", "category Dairy", "category Produce"])
        #expect(try laptop.view() == phone.view())
        #expect(try phone.engine.setAsideChanges().isEmpty && laptop.engine.setAsideChanges().isEmpty)
        #expect(try phone.engine.pendingChangeCount() == 0 && laptop.engine.pendingChangeCount() == 0)
      }
    }
  }

  @Test func hostilePushesAreRefusedAndHonestDevicesConverge() async throws {
    try await Self.checkHostilePushesAreRefusedAndHonestDevicesConverge(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func hostilePushesAreRefusedAndHonestDevicesConvergeOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkHostilePushesAreRefusedAndHonestDevicesConverge(storage) }
  }
}
