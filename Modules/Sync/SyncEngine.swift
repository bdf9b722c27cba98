public import Foundation
public import Model
public import Persistence

/// Syncs one device's store with a cloud: stamps local changes, pulls and merges what
/// other devices pushed, then pushes this device's outbox.
///
/// All sync state (replica id, clock, field stamps, redirects, outbox position, cloud
/// token) lives in the device's own store and commits with the data, so an interrupted
/// sync resumes where it stopped: nothing is lost and nothing applied twice changes
/// anything. Pulls and pushes are paged, so a device that was offline for a year
/// catches up without loading everything at once.
///
/// ```swift
/// let engine = SyncEngine(store: deviceStore, cloud: cloud, deviceName: "kitchen iPad")
/// let report = try engine.sync()
/// ```
public final class SyncEngine: Sendable {
  public let store: any Store
  public let cloud: any CloudStore
  public let deviceName: String
  public let monitor: SyncMonitor
  /// Cloud batches applied per pull transaction.
  public let pullPageSize: Int
  /// Record changes per pushed batch.
  public let pushBatchSize: Int
  /// The schema version this device writes, published in the cloud's device registry.
  public let schemaVersion: Int

  public init(
    store: any Store, cloud: any CloudStore, deviceName: String, monitor: SyncMonitor = SyncMonitor(),
    pullPageSize: Int = 64, pushBatchSize: Int = 500, schemaVersion: Int = 3
  ) {
    self.store = store
    self.cloud = cloud
    self.deviceName = deviceName
    self.monitor = monitor
    self.pullPageSize = max(1, pullPageSize)
    self.pushBatchSize = max(1, pushBatchSize)
    self.schemaVersion = schemaVersion
  }

  /// What one sync did.
  public struct Report: Sendable, Hashable, Codable {
    public var pulledBatches = 0
    public var imported = 0
    public var pushedBatches = 0
    public var exported = 0
    public var conflicts = 0
    public var merges = 0
    public var errors = 0

    public init() {}
  }

  /// Stamps, pulls, settles what waits for records created here, then pushes.
  /// - Parameter interruptAfterPulledPages: test seam: stop with ``SyncInterrupted``
  ///   after this many committed pull pages, as a crash or lost connection would.
  @discardableResult
  public func sync(interruptAfterPulledPages: Int? = nil) throws -> Report {
    var report = Report()
    do {
      try joinCloud()
      try stampOutbox()
      try pull(into: &report, interruptAfter: interruptAfterPulledPages)
      try settleWaiting()
      try stampOutbox()
      try push(into: &report)
      let replica = try replicaID()
      try cloud.register(CloudDevice(replicaID: replica, name: deviceName, schemaVersion: schemaVersion, lastSeen: store.clock()))
      monitor.record(.sync, "\(deviceName): pulled \(report.imported), pushed \(report.exported), merged \(report.merges), conflicts \(report.conflicts)")
      return report
    } catch let error as SyncInterrupted {
      throw error
    } catch {
      monitor.record(.error, "\(deviceName): \(error)")
      throw error
    }
  }

  /// Records a merge made outside sync — a migration's dedup step merging `loser` into
  /// `keeper` — inside the caller's write transaction. The next sync pushes the redirect
  /// with the loser's tombstone, so a replica that still names the loser re-points what
  /// refers to it to the keeper instead of losing it.
  public static func recordMerge(_ kind: EntityKind, loser: UUID, into keeper: UUID, in writer: any StoreWriter) throws {
    guard loser != keeper else { return }
    try writer.setRedirect(keeper, kind, loser)
  }

  /// This device's replica id (created on first use).
  public func replicaID() throws -> String {
    if let id = try store.read({ try $0.metadata(forKey: ReplicaKeys.replicaID) }) { return id }
    return try store.write(origin: .sync) { try $0.ensureReplicaID() }
  }

  /// How many local changes wait to be pushed.
  public func pendingChangeCount() throws -> Int {
    try store.read { reader in
      let pushed = try reader.syncInteger(ReplicaKeys.pushed)
      var count = 0, after = pushed
      while true {
        let page = try reader.changes(after: after, limit: 1_000)
        guard let last = page.last else { return count }
        count += page.filter { $0.origin != .sync }.count
        after = last.sequence
      }
    }
  }

  /// Starts over with a cloud this store has not synced with before: everything is
  /// pulled and every local change pushed again (pushing and applying twice is harmless).
  private func joinCloud() throws {
    try store.write(origin: .sync) { writer in
      guard try writer.metadata(forKey: ReplicaKeys.cloud) != cloud.identifier else { return }
      try writer.setSyncInteger(0, ReplicaKeys.token)
      try writer.setSyncInteger(0, ReplicaKeys.pushed)
      try writer.setMetadata(cloud.identifier, forKey: ReplicaKeys.cloud)
    }
  }

  // MARK: Stamping

  /// Gives every local change not yet stamped a stamp per changed field, in change-log
  /// order, from the persisted hybrid clock. Runs before each pull, so a change made
  /// before remote data arrived is stamped as older than that data's stamps.
  func stampOutbox() throws {
    try store.write(origin: .sync) { writer in
      let replica = try writer.ensureReplicaID()
      var clock = try writer.replicaClock()
      var after = try writer.syncInteger(ReplicaKeys.stamped)
      let withRedirect = try ReplicaKeys.records(withPrefix: ReplicaKeys.redirectPrefix, in: writer)
      while true {
        let page = try writer.changes(after: after, limit: 1_000)
        guard let last = page.last else { break }
        let own = page.filter { $0.origin != .sync }
        // Which of the page's records are tombstones, and their stamps, in two reads;
        // stamps written once per record, at the end of the page (stamping writes nothing
        // else, so the records stay as read).
        let read = try PageRead(Set(own.map { Merger.RecordKey(kind: $0.kind, id: $0.id) }), in: writer, wholeRecords: false)
        var stamped: [Merger.RecordKey: [String: Stamp]] = [:]
        for change in own {
          let key = Merger.RecordKey(kind: change.kind, id: change.id)
          let reading = clock.tick(physical: change.timestamp.millisecondsSince1970)
          let stamp = Stamp(time: reading.time, counter: reading.counter, replica: replica)
          var stamps = stamped[key] ?? read.stamps[key] ?? [:]
          if change.origin != .derived {
            for field in Self.withIdentityGroup(change.fields, change.kind) { stamps[field] = stamp }
          }
          if read.tombstones.contains(key), change.operation == .delete || stamps[RecordChange.deletedField] == nil {
            stamps[RecordChange.deletedField] = stamp
          }
          if withRedirect.contains(key), stamps[RecordChange.redirectField] == nil {
            stamps[RecordChange.redirectField] = stamp
          }
          stamped[key] = stamps
        }
        for (key, stamps) in stamped { try writer.setStamps(stamps, key.kind, key.id) }
        after = last.sequence
      }
      try writer.setSyncInteger(after, ReplicaKeys.stamped)
      try writer.setMetadata(clock.encoded, forKey: ReplicaKeys.clock)
    }
  }

  /// Settles relationships and folds that wait for records this device created itself
  /// (see `Merger.settleWaiting`), in one transaction with the repairs that follow.
  private func settleWaiting() throws {
    try store.write(origin: .sync) { writer in
      let merger = try Merger(writer: writer, replica: try writer.ensureReplicaID(), clock: try writer.replicaClock(), now: store.clock())
      guard merger.hasWaiting else { return }
      try merger.settleWaiting()
      try merger.repairReferences()
      for (kind, detail) in merger.notes { monitor.record(kind, "\(deviceName): \(detail)") }
    }
  }

  // MARK: Pushing

  private func push(into report: inout Report) throws {
    while true {
      let batch: (batch: ChangeBatch, last: Int64)? = try store.read { reader in
        let replica = try reader.metadata(forKey: ReplicaKeys.replicaID) ?? ""
        let pushed = try reader.syncInteger(ReplicaKeys.pushed)
        let stamped = try reader.syncInteger(ReplicaKeys.stamped)
        guard pushed < stamped else { return nil }
        var order: [Merger.RecordKey] = []
        var fields: [Merger.RecordKey: Set<String>] = [:]
        var after = pushed, last = pushed
        while order.count < pushBatchSize && after < stamped {
          let page = try reader.changes(after: after, limit: min(1_000, Int(stamped - after)))
          guard let end = page.last else { break }
          for change in page {
            last = change.sequence
            guard change.origin != .sync else { continue }
            let key = Merger.RecordKey(kind: change.kind, id: change.id)
            if fields[key] == nil {
              order.append(key)
              fields[key] = []
            }
            if change.origin != .derived { fields[key]?.formUnion(Self.withIdentityGroup(change.fields, change.kind)) }
            if order.count >= pushBatchSize { break }
          }
          after = order.count >= pushBatchSize ? last : end.sequence
          last = after
        }
        let sparse = try SparseRecords(reader)
        let read = try PageRead(Set(order), in: reader)
        let changes = try order.compactMap { key in
          try Self.recordChange(key, fields: fields[key] ?? [], read: read, sparse: sparse, in: reader)
        }
        let batch = ChangeBatch(id: "\(replica):\(pushed + 1)-\(last)", replica: replica, schemaVersion: schemaVersion, changes: changes)
        return (batch, last)
      }
      guard let batch else { return }
      if !batch.batch.changes.isEmpty {
        _ = try cloud.push(batch.batch)
        report.pushedBatches += 1
        report.exported += batch.batch.changes.count
        monitor.record(.export, "\(deviceName): pushed \(batch.batch.changes.count) record changes", count: batch.batch.changes.count)
      }
      try store.write(origin: .sync) { try $0.setSyncInteger(batch.last, ReplicaKeys.pushed) }
    }
  }

  /// Changed fields plus, when any of them is part of the kind's identity (the key and
  /// what it is computed from), the whole identity group, which travels as one unit.
  static func withIdentityGroup(_ fields: [String], _ kind: EntityKind) -> [String] {
    // Groups have one to three fields: a scan compares small strings, no hashing.
    guard let group = identityGroups[kind], fields.contains(where: group.contains) else { return fields }
    return fields + group.filter { !fields.contains($0) }
  }

  /// Each kind's identity fields (kinds without a semantic key have none), made once:
  /// every stamped and every pushed change asks.
  private static let identityGroups: [EntityKind: [String]] = Dictionary(
    uniqueKeysWithValues: EntityKind.allCases.compactMap { kind in
      let fields = kind.schema.identityFields
      return fields.isEmpty ? nil : (kind, fields)
    }
  )

  /// The exported state of one record: its changed fields' current values and stamps,
  /// plus the deletion and redirect facts.
  static func recordChange(
    _ key: Merger.RecordKey, fields: Set<String>, read: PageRead, sparse: SparseRecords, in reader: any StoreReader
  ) throws -> RecordChange? {
    guard let record = read.records[key] else { return nil }
    let stamps = read.stamps[key] ?? [:]
    let repaired = sparse.withRepaired.contains(key) ? try reader.repairedValues(key.kind, key.id) : [:]
    var values: [String: StampedValue] = [:]
    for field in fields {
      // The value as written (before any re-point or repair this replica derived), so
      // every replica that receives it derives the same result from it.
      guard let stamp = stamps[field], key.kind.schema.field(named: field) != nil else { continue }
      values[field] = StampedValue(value: RepairedValue.written(record, field, stamp: stamp, repaired: repaired), stamp: stamp)
    }
    if let deletedAt = record.meta.deletedAt, let stamp = stamps[RecordChange.deletedField] {
      values[RecordChange.deletedField] = StampedValue(value: .timestamp(deletedAt), stamp: stamp)
    }
    if sparse.withRedirect.contains(key), let keeper = try reader.redirect(key.kind, key.id), let stamp = stamps[RecordChange.redirectField] {
      values[RecordChange.redirectField] = StampedValue(value: .reference(keeper), stamp: stamp)
    }
    guard !values.isEmpty else { return nil }
    return RecordChange(
      kind: key.kind, id: key.id, createdAt: record.meta.createdAt, updatedAt: record.meta.updatedAt,
      ownerID: record.meta.ownerID, sharingScope: record.meta.sharingScope, fields: values
    )
  }

  // MARK: Pulling

  private func pull(into report: inout Report, interruptAfter: Int?) throws {
    var pages = 0
    while true {
      let token = try store.read { try $0.syncInteger(ReplicaKeys.token) }
      let entries = try cloud.pull(after: token, limit: pullPageSize)
      guard let last = entries.last else { return }
      let counts = try store.write(origin: .sync) { writer -> SyncCounts in
        let replica = try writer.ensureReplicaID()
        let merger = try Merger(writer: writer, replica: replica, clock: try writer.replicaClock(), now: store.clock())
        for entry in entries where entry.batch.replica != replica {
          for change in entry.batch.changes { try merger.apply(change) }
        }
        try merger.repairReferences()
        try writer.setMetadata(merger.clock.encoded, forKey: ReplicaKeys.clock)
        try writer.setSyncInteger(last.sequence, ReplicaKeys.token)
        for (kind, detail) in merger.notes { monitor.record(kind, "\(deviceName): \(detail)") }
        return merger.counts
      }
      report.pulledBatches += entries.count
      report.imported += counts.imports
      report.conflicts += counts.conflicts
      report.merges += counts.merges
      report.errors += counts.errors
      if counts.imports > 0 { monitor.record(.import, "\(deviceName): applied \(counts.imports) record changes", count: counts.imports) }
      pages += 1
      if let interruptAfter, pages >= interruptAfter { throw SyncInterrupted() }
    }
  }
}

/// Thrown by the test seam of ``SyncEngine/sync(interruptAfterPulledPages:)``.
public struct SyncInterrupted: Error, Sendable, Hashable, CustomStringConvertible {
  public init() {}
  public var description: String { "sync interrupted" }
}
