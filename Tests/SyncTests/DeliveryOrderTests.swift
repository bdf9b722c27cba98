import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// A cloud that serves exactly the log it is given, duplicates included, in the order
/// given: what a device sees when batches reach it late, twice or out of order.
final class ScriptedCloud: CloudStore, @unchecked Sendable {
  private var log: [ChangeBatch]
  private var registry: [String: CloudDevice] = [:]
  let identifier = "scripted"
  var location: String { "scripted cloud" }

  init(_ log: [ChangeBatch]) { self.log = log }

  func push(_ batch: ChangeBatch) throws -> Int64 {
    log.append(batch)
    return Int64(log.count)
  }

  func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    let start = Int(max(sequence, 0))
    return log.indices.dropFirst(start).prefix(limit).map { CloudEntry(sequence: Int64($0 + 1), batch: log[$0]) }
  }

  func latestSequence() throws -> Int64 { Int64(log.count) }
  func register(_ device: CloudDevice) throws { registry[device.replicaID] = device }
  func devices() throws -> [CloudDevice] { registry.values.sorted { $0.replicaID < $1.replicaID } }
}

/// The join makes delivery order irrelevant: new devices that receive the same batches in
/// any order, any of them twice, in pages of any size, end with the same state and the
/// same view — on both store backends, and equal to what the devices that wrote the
/// batches show.
///
/// A device that only received pushes nothing: what it derives (keepers, re-pointed and
/// cleared references, hidden records) is in the view, never in its state, so each new
/// device's cloud must hold exactly the batches it was given.
@Suite("Delivery order")
struct DeliveryOrderTests {
  /// The registers a device holds and the live rows it shows.
  static func stateAndView(_ store: any Store) throws -> (state: [String: String], view: [String]) {
    (try store.syncStates(), try SyncWorld.liveState(store))
  }

  /// Two encoded states of one record, register by register where they differ.
  static func describe(_ key: String, _ a: String?, _ b: String?) -> String {
    func decode(_ text: String?) -> RecordChange? {
      text.flatMap { Data(base64Encoded: $0) }.flatMap { try? ChangeBatchCoding.decode($0) }?.changes.first
    }
    guard let x = decode(a), let y = decode(b) else { return "\(key): present in one only" }
    var parts: [String] = []
    if x.createdAt != y.createdAt || x.updatedAt != y.updatedAt {
      parts.append("dates \(x.createdAt)/\(x.updatedAt) vs \(y.createdAt)/\(y.updatedAt)")
    }
    for field in Set(x.fields.keys).union(y.fields.keys).sorted() where x.fields[field] != y.fields[field] {
      parts.append("\(field): \(String(describing: x.fields[field])) vs \(String(describing: y.fields[field]))")
    }
    return "\(key): " + parts.joined(separator: "; ")
  }

  /// The log of a finished seeded schedule: every batch its devices pushed.
  static func batches(seed: UInt64) throws -> (log: [ChangeBatch], view: [String]) {
    let world = try RandomizedConvergenceTests.run(seed: seed, operations: 300, step: RandomizedConvergenceTests.widerWork)
    let log = try world.cloud.pull(after: 0, limit: .max).map(\.batch)
    return (log, try SyncWorld.liveState(world.devices[0].store))
  }

  /// `log` shuffled by `random`, with about one batch in five delivered a second time.
  static func shuffled(_ log: [ChangeBatch], _ random: inout SeededGenerator) -> [ChangeBatch] {
    var delivered = log
    for batch in log where random.next() % 5 == 0 { delivered.append(batch) }
    for index in delivered.indices.reversed() {
      delivered.swapAt(index, Int(random.next() % UInt64(index + 1)))
    }
    return delivered
  }

  @Test(arguments: [UInt64(3), 10])
  func anyOrderDuplicatesAndPagesGiveOneStateAndView(seed: UInt64) throws {
    let (log, written) = try Self.batches(seed: seed)
    #expect(log.count > 10)
    var random = SeededGenerator(seed: seed &+ 99)
    var results: [(label: String, state: [String: String], view: [String])] = []
    var devices: [(label: String, store: any Store, engine: SyncEngine, cloud: ScriptedCloud, delivered: Int)] = []
    for backend in TestBackend.allCases {
      for round in 0..<3 {
        let delivered = round == 0 ? log : Self.shuffled(log, &random)
        let pageSize = round == 0 ? 1 : 1 + Int(random.next() % 9)
        let store = try backend.makeStore()
        let cloud = ScriptedCloud(delivered)
        let clock = TickingClock()
        let engine = SyncEngine(
          store: store, cloud: cloud, deviceName: "new", monitor: SyncMonitor(clock: clock.now), pullPageSize: pageSize,
          replicaIDs: .seeded(seed &+ UInt64(devices.count))
        )
        try engine.sync()
        devices.append(
          ("\(backend) round \(round), \(delivered.count) batches in pages of \(pageSize)", store, engine, cloud, delivered.count))
      }
    }
    for device in devices {
      let pushed = try device.cloud.pull(after: Int64(device.delivered), limit: .max).map(\.batch)
      #expect(pushed.isEmpty, "\(device.label): a device that only received pushed \(pushed.count) batch(es): \(pushed.map(\.id))")
      let (state, view) = try Self.stateAndView(device.store)
      results.append((device.label, state, view))
    }
    let first = try #require(results.first)
    // A new device may pass through key meetings the writers never saw (a rename that
    // arrives before the rename that undid it; seed 10 does): it shows what they show.
    #expect(first.view == written, "the new devices show what the writers show")
    #expect(first.state.count > 20)
    for result in results.dropFirst() {
      let differing = Set(result.state.keys).union(first.state.keys).sorted().filter { result.state[$0] != first.state[$0] }
      #expect(
        differing.isEmpty,
        "\(result.label): state differs at \(differing.count) records, first \(differing.first.map { Self.describe($0, first.state[$0], result.state[$0]) } ?? "")"
      )
      #expect(result.view == first.view, "\(result.label): view differs")
    }
  }
}
