public import Foundation
public import Model
public import Persistence
import Synchronization

/// Syncs one device's store with a cloud: writes this device's own changes into its
/// replicated state, pulls and joins what other devices pushed, brings the tables up to
/// date with the view of the state, then pushes this device's own writes.
///
/// All sync state (replica id, clock, the registers of every record, merge edges, outbox
/// position, cloud token) lives in the device's own store and commits with the data, so
/// an interrupted sync resumes where it stopped. Applying a batch is a join (Docs/SYNC.md),
/// so a page applied twice, out of order or after a crash changes nothing. Pulls and
/// pushes are paged, so a device that was offline for a year catches up without loading
/// everything at once.
///
/// ```swift
/// let engine = SyncEngine(store: deviceStore, cloud: cloud, deviceName: "kitchen iPad")
/// let report = try engine.sync()
/// ```
public final class SyncEngine: Sendable {
  /// This device's store.
  public let store: any Store
  /// The cloud the device pushes to and pulls from.
  public let cloud: any CloudStore
  /// The name the device registers with.
  public let deviceName: String
  /// Counts and events of every sync, for `sync status`.
  public let monitor: SyncMonitor
  /// Cloud batches applied per pull transaction.
  public let pullPageSize: Int
  /// Record changes per pushed batch.
  public let pushBatchSize: Int
  /// The schema version this device writes, published in the cloud's device registry.
  public let schemaVersion: Int
  /// How far ahead of the time authority's clock (as this device reckons it) a pulled
  /// stamp may lie, in seconds; a change with a later stamp waits aside until the clock
  /// reaches it (``SetAsideChange``).
  public let allowedSkew: Double
  /// How far the time authority's clock lies ahead of the store's, in milliseconds, as
  /// learned at the start of this sync (``learnClockOffset()``).
  private let offset = Mutex<Int64>(0)
  /// Where this device's replica id comes from the first time it syncs.
  let newReplicaID: @Sendable () -> String
  /// The states this sync wrote, so that its push does not read them back.
  private let decoded = DecodedStates()

  /// An engine that syncs `store` with `cloud` as the device `deviceName`.
  /// - Parameters:
  ///   - store: this device's store.
  ///   - cloud: the cloud the household's devices share.
  ///   - deviceName: the name the device registers with.
  ///   - monitor: counts and keeps the events of every sync.
  ///   - pullPageSize: cloud batches applied per pull transaction (at least 1).
  ///   - pushBatchSize: record changes per pushed batch (at least 1).
  ///   - schemaVersion: the schema version the device pushes and registers with.
  ///   - replicaIDs: the replica id a store gets when it first syncs; tests and
  ///     simulations pass a seeded source so a seed replays exactly.
  ///   - allowedSkew: how far ahead of the time authority's clock, in seconds, a pulled
  ///     stamp may lie; a change with a later stamp waits aside until the clock reaches it.
  public init(
    store: any Store, cloud: any CloudStore, deviceName: String, monitor: SyncMonitor = SyncMonitor(),
    pullPageSize: Int = 64, pushBatchSize: Int = 500, schemaVersion: Int = ChangeBatchCoding.schemaVersion, replicaIDs: IDSource = .random,
    allowedSkew: Double = ChangeRules.defaultAllowedSkew
  ) {
    self.allowedSkew = allowedSkew
    self.store = store
    self.cloud = cloud
    self.deviceName = deviceName
    self.monitor = monitor
    self.pullPageSize = max(1, pullPageSize)
    self.pushBatchSize = max(1, pushBatchSize)
    self.schemaVersion = schemaVersion
    self.newReplicaID = { replicaIDs.next().lowercaseText }
  }

  /// What one sync did.
  public struct Report: Sendable, Hashable, Codable {
    /// Batches pulled from the cloud.
    public var pulledBatches = 0
    /// Pulled record changes joined into the replicated state.
    public var imported = 0
    /// Batches pushed to the cloud.
    public var pushedBatches = 0
    /// Record changes pushed.
    public var exported = 0
    /// Fields another device wrote a different value to than this device did; the higher stamp's value is kept.
    public var conflicts = 0
    /// Merge edges learned: records merged into another with the same semantic key.
    public var merges = 0
    /// Records not shown because the view of their state breaks the schema (``UnshownRecord``).
    public var errors = 0
    /// Batches kept unread: written by a newer schema than this device's (``HeldBatch``).
    public var held = 0
    /// Changes set aside: they break the rules every device and the server check
    /// (``SetAsideChange``).
    public var setAside = 0
    /// The log position of the snapshot this sync started from, when it started from one.
    public var snapshotPosition: Int64?
    /// Whether this device was behind a compacted log's start and started again from the
    /// snapshot, joining it into the states it held.
    public var restartedFromSnapshot = false

    /// An empty report.
    public init() {}
  }

  /// Stamps this device's changes, pulls and joins, then pushes.
  /// - Parameter interruptAfterPulledPages: test seam: stop with ``SyncInterrupted``
  ///   after this many committed pull pages, as a crash or lost connection would.
  @discardableResult
  public func sync(interruptAfterPulledPages: Int? = nil) throws -> Report {
    var report = Report()
    defer { decoded.removeAll() }
    monitor.syncStarted()
    do {
      try joinCloud()
      try learnClockOffset()
      // The first page is fetched while the outbox is stamped. A device with no place in the
      // log may start from a snapshot instead (``startFromSnapshot(into:)``), which drops
      // that page: one page fetched for nothing, once, against a first sync that waits for
      // no page when the household has no snapshot.
      var fetch: PageFetch? = PageFetch(cloud, after: try store.read { try $0.syncInteger(ReplicaKeys.token) }, limit: pullPageSize)
      defer { fetch?.discard() }
      try stampOutbox(into: &report)
      do {
        try pull(into: &report, fetch: &fetch, interruptAfter: interruptAfterPulledPages)
      } catch let error where !(error is SyncInterrupted) && !(error is CloudError) {
        // A page this device cannot apply (its transaction rolled back) does not keep this
        // device's own changes from the others: they are stamped already, and pushing
        // them does not depend on what the page holds.
        do {
          try push(into: &report)
        } catch let pushError {
          monitor.record(.error, "\(deviceName): pushing after a pull that failed: \(pushError)")
        }
        throw error
      }
      try push(into: &report)
      let replica = try replicaID()
      try cloud.register(CloudDevice(replicaID: replica, name: deviceName, schemaVersion: schemaVersion, lastSeen: authorityNow()))
      monitor.record(
        .sync, "\(deviceName): pulled \(report.imported), pushed \(report.exported), merged \(report.merges), conflicts \(report.conflicts)"
      )
      endForMonitor(error: nil)
      return report
    } catch let error as SyncInterrupted {
      endForMonitor(error: error)
      throw error
    } catch {
      monitor.record(.error, "\(deviceName): \(error)")
      endForMonitor(error: error)
      throw error
    }
  }

  /// Tells the monitor a sync ended, with the changes still waiting and set aside.
  private func endForMonitor(error: (any Error)?) {
    let pending = try? pendingChangeCount()
    let setAside = (try? setAsideChanges().count).map { $0 + Int((try? droppedSetAsideCount()) ?? 0) }
    monitor.syncEnded(error: error, pending: pending, setAside: setAside)
  }

  /// This device's replica id (created on first use).
  public func replicaID() throws -> String {
    if let id = try store.read({ try $0.metadata(forKey: ReplicaKeys.replicaID) }) { return id }
    return try store.write(origin: .sync) { try $0.ensureReplicaID(newReplicaID) }
  }

  /// The cloud sequence up to which this device pulled and applied the log (0: none yet):
  /// the cursor every pull starts from.
  public func cursor() throws -> Int64 { try store.read { try $0.syncInteger(ReplicaKeys.token) } }

  /// Whether a local change waits to be pushed (one read of the change log).
  public func hasPendingChanges() throws -> Bool {
    try store.read { try !$0.changes(after: try $0.syncInteger(ReplicaKeys.pushed), limit: 1).isEmpty }
  }

  /// How many local changes wait to be pushed.
  public func pendingChangeCount() throws -> Int {
    try store.read { reader in
      var count = 0, after = try reader.syncInteger(ReplicaKeys.pushed)
      while true {
        let page = try reader.changes(after: after, limit: 1_000)
        guard let last = page.last else { return count }
        count += page.filter(\.isUserWrite).count
        after = last.sequence
      }
    }
  }

  // MARK: Time

  /// The time authority's clock now, as this device reckons it: the store's clock moved by
  /// the offset learned from the cloud at the start of the sync. Stamps are read from it
  /// and pulled stamps checked against it, so a device whose own clock is a year off
  /// stamps near true time and never sets aside an honest peer's change for being ahead
  /// of its clock.
  public func authorityNow() -> Date {
    store.clock().addingTimeInterval(Double(offset.withLock { $0 }) / 1000)
  }

  /// How far the time authority's clock lay ahead of this store's at the last sync, in
  /// seconds (negative when the store's clock runs ahead); nil before a sync with a cloud
  /// that keeps time.
  public func clockOffset() throws -> Double? {
    try keptOffset().map { Double($0) / 1000 }
  }

  /// The offset the last sync kept, in milliseconds.
  private func keptOffset() throws -> Int64? {
    try store.read { try $0.metadata(forKey: ReplicaKeys.clockOffset) }.flatMap(Int64.init)
  }

  /// Asks the cloud for its authority's time and keeps how far the store's clock lies from
  /// it (0 when the cloud has no authority: each device's own clock is then the one).
  ///
  /// The offset kept changes only when the one measured differs from it by more than half
  /// the allowed skew: a reading lags the authority by up to a round trip, and following
  /// that noise would move this device's stamps back and forth from one sync to the next.
  /// So a device whose clock agrees with the authority within a few seconds stamps on its
  /// own clock, and one a year off moves by the year once and then stays put. An authority
  /// reading outside the dates a record may hold (1900–9999) is not believed.
  private func learnClockOffset() throws {
    let local = store.clock()
    guard let authority = try cloud.authorityTime() else {
      offset.withLock { $0 = 0 }
      if try keptOffset() != nil {
        try store.write(origin: .sync) { try $0.setMetadata(nil, forKey: ReplicaKeys.clockOffset) }
      }
      return
    }
    guard ValueRules.dateProblem(authority) == nil, ValueRules.dateProblem(local) == nil else {
      throw CloudError.damaged(location: cloud.location, reason: "its clock reads \(authority), not a date between 1900 and 9999")
    }
    let measured = authority.millisecondsSince1970 - local.millisecondsSince1970
    let kept = try keptOffset()
    let tolerance = ChangeRules(now: local, allowedSkew: allowedSkew).allowedSkew / 2
    guard let kept, abs(measured - kept) <= tolerance else {
      let next = abs(measured) <= tolerance ? 0 : measured
      offset.withLock { $0 = next }
      try store.write(origin: .sync) { try $0.setSyncInteger(next, ReplicaKeys.clockOffset) }
      return
    }
    offset.withLock { $0 = kept }
  }

  /// Starts over with a cloud this store has not synced with before: everything is
  /// pulled and every local change pushed again (pushing and applying twice is harmless).
  private func joinCloud() throws {
    try store.write(origin: .sync) { writer in
      guard try writer.metadata(forKey: ReplicaKeys.cloud) != cloud.identifier else { return }
      try writer.setSyncInteger(0, ReplicaKeys.token)
      try writer.setSyncInteger(0, ReplicaKeys.pushed)
      for prefix in [ReplicaKeys.heldPrefix, ReplicaKeys.asidePrefix, ReplicaKeys.waitingPrefix, ReplicaKeys.sentPrefix] {
        for key in try writer.metadataKeys(withPrefix: prefix) { try writer.setMetadata(nil, forKey: key) }
      }
      try writer.setSyncInteger(0, ReplicaKeys.asideDropped)
      try writer.setMetadata(cloud.identifier, forKey: ReplicaKeys.cloud)
    }
  }

  // MARK: Stamping

  /// Writes every local change not yet in the state into its registers (see `Stamper`),
  /// and brings the tables up to date with the view for the records it touched. Runs
  /// before each pull, so a change made before remote data arrived is stamped as older
  /// than that data's stamps. A store written by an earlier version is converted first.
  func stampOutbox(into report: inout Report) throws {
    let counts = try writeStates { writer -> (merges: Int, errors: Int) in
      let replica = try writer.ensureReplicaID(newReplicaID)
      let local = store.clock()
      let now = authorityNow()
      let states = try StateStore(writer, decoded: decoded, time: local)
      let clockOffset = offset.withLock { $0 }
      var touched = try LegacyConversion.convertIfNeeded(writer, states) { Stamper.onAuthorityClock($0, offset: clockOffset, now: now) }
      let components = IdentityComponents(states: states)
      let rules = ChangeRules(now: now, allowedSkew: allowedSkew)
      let limit = rules.latestStampTime
      // Read as stored: a clock that ran ahead is pulled back by the repair below, after the
      // writes it stamped in the future are found.
      var stamper = Stamper(
        replica: replica, clock: try writer.storedReplicaClock(), now: now, offset: clockOffset)
      touched.formUnion(try stamper.stamp(writer, states, components))
      // Writes stamped while this device's clock ran ahead, now that it is set right.
      touched.formUnion(
        try ClockRepair.restamp(writer, states, replica: replica, clock: &stamper.clock, limit: limit, now: rules.now))
      components.rows.seed(stamper.rows)
      let view = try ViewUpdater(components: components, now: local)
      try view.refresh(touched, created: stamper.rows.filter { stamper.created.contains($0.key) })
      try finish(view, states, clock: stamper.clock, writer)
      for key in stamper.merged.sorted() { try writer.setMetadata("", forKey: ReplicaKeys.push(key)) }
      return (view.merges, view.errors)
    }
    report.merges += counts.merges
    report.errors += counts.errors
  }

  /// Runs a write transaction that may write states: the states it writes are kept decoded
  /// for the rest of the sync once it commits (``DecodedStates``).
  func writeStates<T>(_ body: (any StoreWriter) throws -> T) throws -> T {
    try decoded.committing { try store.write(origin: .sync, body) }
  }

  /// Writes the states back and keeps the clock.
  private func finish(_ view: ViewUpdater, _ states: StateStore, clock: HybridLogicalClock, _ writer: any StoreWriter) throws {
    try states.flush()
    try writer.setMetadata(clock.encoded, forKey: ReplicaKeys.clock)
    for (kind, detail) in view.notes { monitor.record(kind, "\(deviceName): \(detail)") }
  }

  // MARK: Pulling

  /// Pulls and joins page after page until the log ends. `fetch` is the next page when
  /// it is being fetched already; while a page is joined, the one after it is fetched
  /// (``PageFetch``), and whichever fetch is left when this returns or throws is the
  /// caller's to wait for.
  private func pull(into report: inout Report, fetch: inout PageFetch?, interruptAfter: Int?) throws {
    try applyHeldBatches(into: &report)
    try retryWaitingChanges(into: &report)
    if try startFromSnapshot(into: &report) {
      fetch?.discard()
      fetch = nil
    }
    var pages = 0
    while true {
      let token = try store.read { try $0.syncInteger(ReplicaKeys.token) }
      let entries: [CloudEntry]
      do {
        if let fetched = fetch, fetched.after == token {
          fetch = nil
          entries = try fetched.entries()
        } else {
          // Another engine on this store moved the token on since the fetch began.
          fetch?.discard()
          fetch = nil
          entries = try cloud.pull(after: token, limit: pullPageSize)
        }
      } catch CloudError.cursorAhead(_, let cursor, let latest) where cursor == token && latest < token {
        // The log was restored from an earlier point: what comes after its end now is new
        // to this device, so it pulls again from there rather than from its own place.
        try store.write(origin: .sync) { try $0.setSyncInteger(latest, ReplicaKeys.token) }
        monitor.record(
          .error, "\(deviceName): the cloud's log ends at \(latest), before this device's place \(token); pulling from \(latest)")
        continue
      } catch CloudError.compacted(let location, let cursor, let firstKept) where cursor == token {
        // The batches after this device's place are gone: the snapshot holds them joined.
        fetch?.discard()
        fetch = nil
        guard try startFromSnapshot(into: &report, from: token, reaching: firstKept - 1) else {
          throw CloudError.compacted(location: location, cursor: cursor, firstKept: firstKept)
        }
        report.restartedFromSnapshot = true
        continue
      }
      guard let last = entries.last else { return }
      fetch = PageFetch(cloud, after: last.sequence, limit: pullPageSize)
      let held = entries.compactMap(hold)
      let heldSequences = Set(held.map(\.sequence))
      let rules = pullRules()
      let (counts, aside) = try writeStates { writer -> (SyncCounts, Int) in
        let replica = try writer.ensureReplicaID(newReplicaID)
        let screened = try screen(entries.filter { !heldSequences.contains($0.sequence) }, replica: replica, rules: rules, writer)
        let counts = try join(screened.batches, writer, rules: rules)
        try keepAside(screened.aside, writer)
        for batch in held { try keep(batch, writer) }
        try writer.setSyncInteger(last.sequence, ReplicaKeys.token)
        return (counts, screened.aside.count)
      }
      report.pulledBatches += entries.count
      report.held += held.count
      report.setAside += aside
      add(counts, to: &report)
      for batch in held {
        monitor.record(.error, "\(deviceName): kept batch \(batch.sequence) from \(batch.replica) unread until an upgrade: \(batch.reason)")
      }
      pages += 1
      if let interruptAfter, pages >= interruptAfter { throw SyncInterrupted() }
    }
  }

  /// Joins the changes of batches that passed ``screen(_:replica:rules:_:)`` into the
  /// state and refreshes the view of what they touched.
  func join(_ batches: [ChangeBatch], _ writer: any StoreWriter, rules: ChangeRules) throws -> SyncCounts {
    let replica = try writer.ensureReplicaID(newReplicaID)
    let now = store.clock()
    let states = try StateStore(writer, decoded: decoded, time: now)
    let limit = rules.latestStampTime
    var joiner = Joiner(states: states, replica: replica, clock: try writer.replicaClock(limit: limit, now: rules.now), limit: limit)
    let changes = batches.lazy.flatMap(\.changes)
    let keys = changes.map { RecordKey(kind: $0.kind, id: $0.id) }
    try states.preload(keys)
    // The keys the records hold now and the keys the changes bring, in one read: the join
    // moves a record in the key index from one to the other.
    try states.preloadHolders(
      states.keys(heldBy: keys) + changes.compactMap { change in SharedKey(change.kind) { change.fields[$0]?.value } })
    for change in changes { try joiner.apply(change) }
    let view = try ViewUpdater(components: IdentityComponents(states: states), now: now)
    try view.refresh(joiner.touched)
    try finish(view, states, clock: joiner.clock, writer)
    for note in joiner.notes { monitor.record(.conflict, "\(deviceName): \(note)") }
    return SyncCounts(imports: joiner.imports, conflicts: joiner.conflicts, merges: joiner.merges + view.merges, errors: view.errors)
  }

  func add(_ counts: SyncCounts, to report: inout Report) {
    report.imported += counts.imports
    report.conflicts += counts.conflicts
    report.merges += counts.merges
    report.errors += counts.errors
    if counts.imports > 0 { monitor.record(.import, "\(deviceName): applied \(counts.imports) record changes", count: counts.imports) }
  }

  // MARK: Pushing

  /// Pushes this device's own writes: per record changed since the pushed position, the
  /// registers of the fields its local changes named whose stamp is still this device's
  /// (a value another device's later write replaced is not sent back), its existence and
  /// the merge edges it made, with the record's dates (alone, when every register it wrote
  /// was replaced: the others still join the dates its write moved); then the edges the
  /// view derived.
  ///
  /// While one batch is sent (encoded and handed to the cloud) on another thread, the next
  /// is read from the store. Batches are sent one at a time and in order, and the pushed
  /// position moves past a batch only once the cloud took it.
  private func push(into report: inout Report) throws {
    var position = try store.read { try $0.syncInteger(ReplicaKeys.pushed) }
    var sending: (task: BackgroundTask<Int64>, batch: ChangeBatch, last: Int64)?
    defer { sending?.task.wait() }
    let cloud = self.cloud
    while true {
      let next = try nextOutboxBatch(after: position)
      if let (task, batch, last) = sending {
        sending = nil
        _ = try task.value()
        recordSent(batch, into: &report)
        try store.write(origin: .sync) { writer in
          try writer.setSyncInteger(last, ReplicaKeys.pushed)
          try writer.setMetadata("", forKey: ReplicaKeys.sent(batch.id))
        }
      }
      guard let (batch, last) = next else { break }
      if batch.changes.isEmpty {
        try store.write(origin: .sync) { try $0.setSyncInteger(last, ReplicaKeys.pushed) }
      } else {
        sending = (BackgroundTask { try cloud.push(batch) }, batch, last)
      }
      position = last
    }
    while let (batch, markers) = try nextEdgeBatch() {
      try send(batch, into: &report)
      try store.write(origin: .sync) { writer in
        for key in markers { try writer.setMetadata(nil, forKey: ReplicaKeys.push(key)) }
        if !batch.changes.isEmpty { try writer.setMetadata("", forKey: ReplicaKeys.sent(batch.id)) }
      }
    }
  }

  private func send(_ batch: ChangeBatch, into report: inout Report) throws {
    guard !batch.changes.isEmpty else { return }
    _ = try cloud.push(batch)
    recordSent(batch, into: &report)
  }

  private func recordSent(_ batch: ChangeBatch, into report: inout Report) {
    report.pushedBatches += 1
    report.exported += batch.changes.count
    monitor.record(.export, "\(deviceName): pushed \(batch.changes.count) record changes", count: batch.changes.count)
  }

  /// The batch of the change-log outbox after position `pushed` and the position it
  /// reaches, or nil.
  private func nextOutboxBatch(after pushed: Int64) throws -> (ChangeBatch, Int64)? {
    try store.read { reader in
      let replica = try reader.metadata(forKey: ReplicaKeys.replicaID) ?? ""
      let stamped = try reader.syncInteger(ReplicaKeys.stamped)
      guard pushed < stamped else { return nil }
      var order: [RecordKey] = []
      // Per record, the fields its changes named (a name may repeat: the change made from
      // them takes each register once).
      var fields: [RecordKey: [String]] = [:]
      var after = pushed, last = pushed
      outer: while after < stamped {
        let page = try reader.changes(after: after, limit: min(1_000, Int(stamped - after)))
        guard let end = page.last else { break }
        for change in page {
          if order.count >= pushBatchSize, fields[RecordKey(kind: change.kind, id: change.id)] == nil { break outer }
          last = change.sequence
          guard change.isUserWrite else { continue }
          let key = RecordKey(kind: change.kind, id: change.id)
          if fields[key] == nil {
            order.append(key)
            fields[key] = []
          }
          fields[key]?.append(contentsOf: Stamper.withIdentityGroup(change.fields, change.kind))
        }
        after = end.sequence
        last = after
      }
      let states = try reader.states(order, decoded: decoded)
      let own: (StampedValue) -> Bool = { $0.stamp.replica == replica || $0.stamp.replica.isEmpty }
      let changes = order.compactMap { key -> RecordChange? in
        guard let state = states[key] else { return nil }
        return state.change(fields: (fields[key] ?? []) + state.pseudoFields, including: own) ?? state.metadataChange
      }
      return (ChangeBatch(id: "\(replica):\(pushed + 1)-\(last)", replica: replica, schemaVersion: schemaVersion, changes: changes), last)
    }
  }

  /// The next batch of records marked for pushing (merges: their edges and the kept
  /// record's values), with the markers it clears, or nil: the registers this device
  /// wrote. Its id is made from its content, so a batch re-sent after a lost answer is
  /// kept once.
  private func nextEdgeBatch() throws -> (ChangeBatch, [RecordKey])? {
    try store.read { reader in
      let replica = try reader.metadata(forKey: ReplicaKeys.replicaID) ?? ""
      let markers = try reader.metadataKeys(withPrefix: ReplicaKeys.pushPrefix).prefix(pushBatchSize)
        .compactMap { ReplicaKeys.parsePath($0, from: ReplicaKeys.pushPrefix.utf8.count) }
      guard !markers.isEmpty else { return nil }
      let states = try reader.states(markers, decoded: decoded)
      let changes = markers.compactMap { key in
        states[key].flatMap { state in
          state.change(fields: state.fieldNames) { $0.stamp.replica == replica || $0.stamp.replica.isEmpty }
        }
      }
      var hash = FNV1a()
      for change in changes { hash.add(ChangeBatchCoding.encode(ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [change]))) }
      return (ChangeBatch(id: "\(replica):edges-\(hash.hex)", replica: replica, schemaVersion: schemaVersion, changes: changes), markers)
    }
  }
}

/// Thrown by the test seam of ``SyncEngine/sync(interruptAfterPulledPages:)``.
public struct SyncInterrupted: Error, Sendable, Hashable, CustomStringConvertible {
  /// The interruption.
  public init() {}
  /// "sync interrupted".
  public var description: String { "sync interrupted" }
}

/// What one pulled page did.
struct SyncCounts {
  var imports = 0
  var conflicts = 0
  var merges = 0
  var errors = 0
}
