import Foundation
import Model
import Persistence

/// What a device does with a pulled page before joining it: a device trusts no log. Each
/// change is checked with ``ChangeRules`` (the server's rules at the door); one that breaks
/// them is set aside (``SetAsideChange``) and the rest of its batch still applies. A batch
/// whose bytes cannot be read is set aside whole. A batch of this device's own replica is
/// skipped only when this device pushed it (`sync.sent/<id>`): one another device pushed
/// under this replica is joined like any other, so this device shows what the others show.
extension SyncEngine {
  /// The changes this device set aside, in log order.
  public func setAsideChanges() throws -> [SetAsideChange] {
    try (setAside(ReplicaKeys.asidePrefix) + setAside(ReplicaKeys.waitingPrefix)).sorted {
      ($0.sequence, $0.index ?? -1) < ($1.sequence, $1.index ?? -1)
    }
  }

  /// The set-aside changes kept under `prefix`.
  private func setAside(_ prefix: String) throws -> [SetAsideChange] {
    try store.read { reader in
      let keys = try reader.metadataKeys(withPrefix: prefix)
      let decoder = JSONDecoder()
      return try reader.metadata(forKeys: keys).values.compactMap { try? decoder.decode(SetAsideChange.self, from: Data($0.utf8)) }
    }
  }

  /// How many changes were set aside beyond ``SetAsideChange/maximumKept`` and not kept.
  public func droppedSetAsideCount() throws -> Int64 {
    try store.read { try $0.syncInteger(ReplicaKeys.asideDropped) }
  }

  /// The rules this device checks a pulled change with, on the time authority's clock as
  /// this device reckons it (``authorityNow()``).
  func pullRules() -> ChangeRules { ChangeRules(now: authorityNow(), allowedSkew: allowedSkew) }

  /// The batches of `entries` to join, each with only the changes that keep the rules,
  /// and the changes set aside. Removes the sent markers of this device's own batches and
  /// the held batches a retirement notice names.
  func screen(_ entries: [CloudEntry], replica: String, rules: ChangeRules, _ writer: any StoreWriter) throws -> (
    batches: [ChangeBatch], aside: [SetAsideChange]
  ) {
    var batches: [ChangeBatch] = []
    var aside: [SetAsideChange] = []
    for entry in entries {
      if let damage = entry.damage {
        aside.append(Self.wholeBatch(entry, code: "batch-unreadable", reason: damage))
        continue
      }
      let batch = entry.batch
      if let retired = batch.retiredSequence {
        try writer.setMetadata(nil, forKey: ReplicaKeys.held(retired))
        continue
      }
      if let problem = ChangeRules.headerProblem(batch) {
        aside.append(Self.wholeBatch(entry, code: "batch-invalid", reason: problem))
        continue
      }
      if batch.replica == replica {
        if try writer.metadata(forKey: ReplicaKeys.sent(batch.id)) != nil {
          try writer.setMetadata(nil, forKey: ReplicaKeys.sent(batch.id))
          continue
        }
        monitor.record(
          .conflict, "\(deviceName): batch \(entry.sequence) (\(batch.id.prefix(80))) names this device's replica but was not pushed by it")
      }
      var kept: [RecordChange] = []
      kept.reserveCapacity(batch.changes.count)
      for (index, change) in batch.changes.enumerated() {
        guard let violation = rules.violation(in: change, of: batch) else {
          kept.append(change)
          continue
        }
        aside.append(SetAsideChange(sequence: entry.sequence, index: index, of: batch, for: violation))
      }
      batches.append(
        kept.count == batch.changes.count
          ? batch : ChangeBatch(id: batch.id, replica: batch.replica, schemaVersion: batch.schemaVersion, changes: kept))
    }
    return (batches, aside)
  }

  /// Keeps set-aside changes (up to ``SetAsideChange/maximumKept``; past it, counts them)
  /// and tells the monitor.
  func keepAside(_ aside: [SetAsideChange], _ writer: any StoreWriter) throws {
    guard !aside.isEmpty else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let kept =
      try writer.metadataKeys(withPrefix: ReplicaKeys.asidePrefix).count
      + writer.metadataKeys(withPrefix: ReplicaKeys.waitingPrefix).count
    var room = SetAsideChange.maximumKept - kept
    var dropped: Int64 = 0
    for item in aside {
      monitor.record(.error, "\(deviceName): set aside \(item.summary)")
      guard room > 0 else {
        dropped += 1
        continue
      }
      room -= 1
      try writer.setMetadata(
        String(decoding: try encoder.encode(item), as: UTF8.self), forKey: ReplicaKeys.aside(item))
    }
    if dropped > 0 {
      try writer.setSyncInteger(try writer.syncInteger(ReplicaKeys.asideDropped) + dropped, ReplicaKeys.asideDropped)
    }
  }

  /// Fetches again the set-aside changes that waited for this device's clock and whose
  /// time has come, and joins those that now keep the rules.
  func retryWaitingChanges(into report: inout Report) throws {
    let rules = pullRules()
    let due = try setAside(ReplicaKeys.waitingPrefix).filter { ($0.waitsUntil ?? .max) <= rules.latestStampTime && $0.index != nil }
    guard !due.isEmpty else { return }
    var ready: [ChangeBatch] = []
    var done: [SetAsideChange] = []
    var refused: [SetAsideChange] = []
    for (sequence, items) in Dictionary(grouping: due, by: \.sequence).sorted(by: { $0.key < $1.key }) {
      guard let entry = try cloud.pull(after: sequence - 1, limit: 1).first, entry.sequence == sequence, entry.damage == nil else {
        continue
      }
      let batch = entry.batch
      var changes: [RecordChange] = []
      for item in items {
        guard let index = item.index, batch.changes.indices.contains(index) else { continue }
        let change = batch.changes[index]
        if let violation = rules.violation(in: change, of: batch) {
          if violation.isTemporary { continue }
          // It breaks a rule for good now (a field this version refuses): it stays aside.
          refused.append(SetAsideChange(sequence: sequence, index: index, of: batch, for: violation))
        } else {
          changes.append(change)
        }
        done.append(item)
      }
      if !changes.isEmpty {
        ready.append(ChangeBatch(id: batch.id, replica: batch.replica, schemaVersion: batch.schemaVersion, changes: changes))
      }
    }
    guard !done.isEmpty else { return }
    let counts = try writeStates { writer -> SyncCounts in
      let counts = try join(ready, writer, rules: rules)
      for item in done { try writer.setMetadata(nil, forKey: ReplicaKeys.aside(item)) }
      try keepAside(refused, writer)
      return counts
    }
    add(counts, to: &report)
  }

  private static func wholeBatch(_ entry: CloudEntry, code: String, reason: String) -> SetAsideChange {
    SetAsideChange(
      sequence: entry.sequence, index: nil, batchID: entry.batch.id, replica: entry.batch.replica, kind: nil, id: nil, field: nil,
      code: code, reason: reason, waitsUntil: nil)
  }
}
