import Foundation
import Model
import Persistence
import Sync
import TestSupport
import Testing

/// A seed replays exactly: every id, clock reading and random choice of a randomized
/// schedule comes from its seed, so running it twice gives byte-identical stores (rows,
/// sync state, change logs) and cloud logs. Sets and dictionaries are seeded per instance,
/// so two runs in one process already iterate them differently; `Scripts/test.sh` also
/// sets `SWIFT_DETERMINISTIC_HASHING=1` so a failing seed replays across processes.
@Suite("Seeds replay exactly")
struct ReplayTests {
  /// Everything a world holds, one line per row, metadata entry, sync state, change and
  /// cloud batch.
  static func dump(_ world: SyncWorld) throws -> [String] {
    var lines: [String] = []
    for device in world.devices {
      for record in try device.store.dump() {
        let fields = record.fields.keys.sorted().map { "\($0)=\(record[$0])" }.joined(separator: ";")
        lines.append("\(device.name) row \(record.kind.rawValue) \(record.id) \(record.meta) \(fields)")
      }
      try device.store.read { reader in
        let keys = try reader.metadataKeys(withPrefix: "").sorted()
        let values = try reader.metadata(forKeys: keys)
        for key in keys { lines.append("\(device.name) meta \(key)=\(values[key] ?? "-")") }
      }
      for (record, text) in try device.store.syncStates().sorted(by: { $0.key < $1.key }) {
        lines.append("\(device.name) state \(record)=\(text)")
      }
      for change in try device.store.changeLog() {
        lines.append("\(device.name) change \(change)")
      }
    }
    for entry in try world.cloud.pull(after: 0, limit: .max) {
      lines.append("cloud \(entry.sequence) \(ChangeBatchCoding.encode(entry.batch).base64EncodedString())")
    }
    return lines
  }

  /// Seeds 8 (SQLite stores) and 9 (in-memory stores) of the wider schedule.
  @Test(arguments: [UInt64(8), 9])
  func aSeedReplaysToByteIdenticalStores(seed: UInt64) throws {
    let run = { try Self.dump(RandomizedConvergenceTests.run(seed: seed, operations: 400, step: RandomizedConvergenceTests.widerWork)) }
    let first = try run()
    let second = try run()
    #expect(first.count > 500, "the schedule wrote something to compare")
    #expect(first.contains { $0.hasPrefix("cloud ") } && first.contains { $0.contains(" state ") })
    let difference = zip(first, second).first { $0 != $1 }.map { "\($0.0.prefix(400))\n  vs \($0.1.prefix(400))" }
    #expect(first.count == second.count && difference == nil, "first difference: \(String(describing: difference))")
  }
}
