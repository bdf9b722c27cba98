import Foundation
import Model
import Persistence

/// Applies remote record changes to one replica inside one write transaction, keeping
/// every invariant as it goes: per-field highest stamp wins, deletes win, no two live
/// records of a unique kind share a key (duplicates are merged into the smallest id, with
/// a redirect), and no live relationship points at a deleted record.
final class Merger {
  let writer: any StoreWriter
  let replica: String
  var clock: HybridLogicalClock
  private(set) var counts = SyncCounts()
  private(set) var notes: [(SyncMonitor.Event.Kind, String)] = []
  /// Records written in this transaction whose references must be checked.
  private var touched: [RecordKey] = []
  /// Records deleted in this transaction whose referrers must be repaired.
  private var deleted: [RecordKey] = []
  private let now: Date

  struct RecordKey: Hashable {
    let kind: EntityKind
    let id: UUID
  }

  init(writer: any StoreWriter, replica: String, clock: HybridLogicalClock, now: Date) throws {
    self.writer = writer
    self.replica = replica
    self.clock = clock
    self.now = now
    withRedirect = try ReplicaKeys.records(withPrefix: ReplicaKeys.redirectPrefix, in: writer)
    withDangling = try ReplicaKeys.records(withPrefix: ReplicaKeys.danglingPrefix, in: writer)
    withRepaired = try ReplicaKeys.records(withPrefix: ReplicaKeys.repairedPrefix, in: writer)
    withPendingFolds = try ReplicaKeys.records(withPrefix: ReplicaKeys.pendingFoldPrefix, in: writer)
  }

  /// Keepers that losers were merged into before the keeper arrived on this replica.
  private var withPendingFolds: Set<RecordKey>

  /// Remembers that `loser` was merged into `keeper` while the keeper was absent, so its
  /// values are folded in when the keeper arrives (as every replica that had the keeper
  /// folded them at the merge).
  private func rememberPendingFold(_ kind: EntityKind, _ loser: UUID, into keeper: UUID) throws {
    let key = RecordKey(kind: kind, id: keeper)
    var losers = withPendingFolds.contains(key) ? try pendingFolds(kind, keeper) : []
    guard !losers.contains(loser) else { return }
    losers.append(loser)
    try writer.setMetadata(losers.map(\.lowercaseText).joined(separator: "\n"), forKey: ReplicaKeys.pendingFolds(kind, keeper))
    withPendingFolds.insert(key)
  }

  private func pendingFolds(_ kind: EntityKind, _ keeper: UUID) throws -> [UUID] {
    guard let text = try writer.metadata(forKey: ReplicaKeys.pendingFolds(kind, keeper)) else { return [] }
    return text.split(separator: "\n").compactMap { UUID(hyphenatedHex: String($0)) }
  }

  /// Folds the losers merged into `id` before it arrived (see ``rememberPendingFold``).
  private func foldPending(_ kind: EntityKind, into id: UUID) throws {
    let key = RecordKey(kind: kind, id: id)
    guard withPendingFolds.contains(key) else { return }
    let losers = try pendingFolds(kind, id)
    try writer.setMetadata(nil, forKey: ReplicaKeys.pendingFolds(kind, id))
    withPendingFolds.remove(key)
    for loser in losers {
      guard let stored = try writer.record(kind, id: loser) else { continue }
      try merge(loser: stored, into: id, alreadyDeleted: !stored.meta.isLive)
    }
  }

  /// Whether any relationships or folds wait for a record (see ``settleWaiting()``).
  var hasWaiting: Bool { !withDangling.isEmpty || !withPendingFolds.isEmpty }

  /// Settles what waits for a record that this replica now stores live without having
  /// received it: relationships a repair cleared while it was missing, and losers merged
  /// into it before it existed here. A record's arrival settles them (`insertNew`); a
  /// record this device created itself under the same name-based id (a template named
  /// "garlic" created here while another device's "garlic" was on its way) never arrives,
  /// so without this its relationships would stay cleared here and nowhere else.
  func settleWaiting() throws {
    for key in withDangling.union(withPendingFolds) {
      guard try writer.liveRecord(key.kind, id: key.id) != nil else { continue }
      try restoreDangling(key.kind, from: key.id, to: key.id)
      try foldPending(key.kind, into: key.id)
    }
  }

  /// The records that have a redirect, remembered relationships or repaired values, read
  /// by one range scan per family when the merger starts: most records have none, and
  /// looking each one up costs a statement. The merger's own writes keep them exact.
  private var withRedirect: Set<RecordKey>
  private var withDangling: Set<RecordKey>
  private var withRepaired: Set<RecordKey>

  func repairedValues(_ kind: EntityKind, _ id: UUID) throws -> [String: RepairedValue] {
    guard withRepaired.contains(RecordKey(kind: kind, id: id)) else { return [:] }
    return try writer.repairedValues(kind, id)
  }

  func setRepairedValues(_ values: [String: RepairedValue], _ kind: EntityKind, _ id: UUID) throws {
    let key = RecordKey(kind: kind, id: id)
    if values.isEmpty && !withRepaired.contains(key) { return }
    try writer.setRepairedValues(values, kind, id)
    if values.isEmpty { withRepaired.remove(key) } else { withRepaired.insert(key) }
  }

  func danglingReferences(to kind: EntityKind, _ id: UUID) throws -> [DanglingReference] {
    guard withDangling.contains(RecordKey(kind: kind, id: id)) else { return [] }
    return try writer.danglingReferences(to: kind, id)
  }

  func setDanglingReferences(_ references: [DanglingReference], to kind: EntityKind, _ id: UUID) throws {
    let key = RecordKey(kind: kind, id: id)
    if references.isEmpty && !withDangling.contains(key) { return }
    try writer.setDanglingReferences(references, to: kind, id)
    if references.isEmpty { withDangling.remove(key) } else { withDangling.insert(key) }
  }

  // MARK: Stamps and redirects, cached

  /// Every record's stamps and redirect are read several times while one change is
  /// applied; all writes to them in this transaction go through here, so the caches stay
  /// exact.
  private var stampsCache: [RecordKey: [String: Stamp]] = [:]
  private var redirectCache: [RecordKey: UUID?] = [:]

  func stamps(_ kind: EntityKind, _ id: UUID) throws -> [String: Stamp] {
    let key = RecordKey(kind: kind, id: id)
    if let cached = stampsCache[key] { return cached }
    let stamps = try writer.stamps(kind, id)
    stampsCache[key] = stamps
    return stamps
  }

  func setStamps(_ stamps: [String: Stamp], _ kind: EntityKind, _ id: UUID) throws {
    let key = RecordKey(kind: kind, id: id)
    if stampsCache[key] == stamps { return }
    try writer.setStamps(stamps, kind, id)
    stampsCache[key] = stamps
  }

  func redirect(_ kind: EntityKind, _ id: UUID) throws -> UUID? {
    let key = RecordKey(kind: kind, id: id)
    if let cached = redirectCache[key] { return cached }
    guard withRedirect.contains(key) else { return nil }
    let keeper = try writer.redirect(kind, id)
    redirectCache[key] = .some(keeper)
    return keeper
  }

  func setRedirect(_ keeper: UUID, _ kind: EntityKind, _ id: UUID) throws {
    try writer.setRedirect(keeper, kind, id)
    redirectCache[RecordKey(kind: kind, id: id)] = .some(keeper)
    withRedirect.insert(RecordKey(kind: kind, id: id))
  }

  /// Follows redirects from `id` to the end of the chain (see `StoreReader.redirectEnd`).
  func redirectEnd(_ kind: EntityKind, _ id: UUID) throws -> UUID {
    try ReplicaKeys.followRedirects(from: id) { try redirect(kind, $0) }
  }

  // MARK: Applying

  func apply(_ change: RecordChange) throws {
    for value in change.fields.values { clock.receive(value.stamp) }
    counts.imports += 1
    let kind = change.kind
    var ownStamps = try stamps(kind, change.id)

    // The redirect is the record's own fact, applied before anything is resolved through it.
    let previousEnd = try redirect(kind, change.id) == nil ? nil : redirectEnd(kind, change.id)
    var learnedRedirect = false
    if let incoming = change.fields[RecordChange.redirectField], let keeper = incoming.value.reference,
      incoming.stamp > (ownStamps[RecordChange.redirectField] ?? Stamp.lowest)
    {
      ownStamps[RecordChange.redirectField] = incoming.stamp
      if keeper != change.id, UUID.keeperOrder(keeper, change.id), try redirect(kind, change.id) != keeper {
        try setRedirect(keeper, kind, change.id)
        learnedRedirect = true
      }
      try setStamps(ownStamps, kind, change.id)
    }

    let target = try redirectEnd(kind, change.id)
    let regular = change.fields.filter { !$0.key.hasPrefix("@") }
    if try writer.record(kind, id: change.id) == nil {
      try insertNew(change, regular: regular, stamps: ownStamps)
    } else {
      // Fields of a merged record land on its keeper.
      if !regular.isEmpty { try mergeFields(regular, into: target, kind: kind, meta: change) }
      // A merge another replica made: fold this record's state into the keeper, whether
      // or not this replica had already deleted it.
      if target != change.id, let loser = try writer.record(kind, id: change.id), learnedRedirect || loser.meta.isLive {
        try merge(loser: loser, into: target, alreadyDeleted: !loser.meta.isLive)
      }
    }

    if let deletion = change.fields[RecordChange.deletedField] {
      try applyDeletion(kind, change.id, deletion)
    }

    // Two replicas merged this record into different keepers (its key changed between
    // the merges): all of them are one entity now, so their ends are merged too, by the
    // same keeper rule. Folding is order-free (highest stamp per field), so every replica
    // ends with the same record whichever merge it learned first.
    if let incoming = change.fields[RecordChange.redirectField]?.value.reference {
      let current = try redirectEnd(kind, change.id)
      try union(kind, current, try redirectEnd(kind, incoming))
      if let previousEnd { try union(kind, try redirectEnd(kind, previousEnd), try redirectEnd(kind, change.id)) }
    }
  }

  private func union(_ kind: EntityKind, _ first: UUID, _ second: UUID) throws {
    guard first != second else { return }
    let (keeper, loser) = UUID.keeperOrder(first, second) ? (first, second) : (second, first)
    guard let record = try writer.record(kind, id: loser) else {
      // The loser has not arrived yet: its redirect is recorded now, so it is merged into
      // the keeper when it arrives (as any record arriving already merged away), and the
      // merge is then logged and pushed like this replica's other merges. Otherwise this
      // replica alone would keep the merge it derived from a redirect since replaced.
      if try redirect(kind, loser) == nil { try setRedirect(keeper, kind, loser) }
      return
    }
    try merge(loser: record, into: keeper, alreadyDeleted: !record.meta.isLive)
  }

  private func insertNew(_ change: RecordChange, regular: [String: StampedValue], stamps: [String: Stamp]) throws {
    try insertArrived(change, regular: regular, stamps: stamps)
    try foldPending(change.kind, into: change.id)
  }

  private func insertArrived(_ change: RecordChange, regular: [String: StampedValue], stamps: [String: Stamp]) throws {
    let kind = change.kind
    var fields: [String: FieldValue] = [:]
    var stamps = stamps
    var written: [String: RepairedValue] = [:]
    let schema = kind.schema
    fields.reserveCapacity(regular.count)
    for (name, value) in regular {
      guard let field = schema.field(named: name) else { continue }
      let stored = try redirected(value.value, field.type)
      fields[name] = stored
      stamps[name] = value.stamp
      if stored != value.value { written[name] = RepairedValue(value: value.value, stamp: value.stamp) }
    }
    if !written.isEmpty { try setRepairedValues(written, kind, change.id) }
    var meta = RecordMetadata(
      id: change.id, createdAt: change.createdAt, updatedAt: change.updatedAt, ownerID: change.ownerID,
      sharingScope: change.sharingScope
    )
    if let deletion = change.fields[RecordChange.deletedField] {
      meta.deletedAt = deletion.value.timestampValue ?? change.updatedAt
      stamps[RecordChange.deletedField] = deletion.stamp
    }
    var record = Record(kind: kind, meta: meta, fields: fields)
    do {
      try record.validateAgainstSchema()
    } catch {
      counts.errors += 1
      notes.append((.error, "skipped \(kind.rawValue) \(change.id.lowercaseText): \(error)"))
      return
    }
    try setStamps(stamps, kind, change.id)
    let target = try redirectEnd(kind, change.id)
    if target != change.id {
      // Arrives already merged away (its redirect is known, perhaps in this very change):
      // stored as a tombstone, its fields folded into the keeper, as the merging replica did.
      let state = record
      record.meta.deletedAt = record.meta.deletedAt ?? now
      try writer.insertRecord(record)
      try merge(loser: state, into: target, alreadyDeleted: true)
      return
    }
    if record.meta.isLive {
      switch try resolveDuplicates(of: record) {
      case .loserOf(let keeper):
        // A smaller record holds the key: this one arrives as its loser. The tombstone is
        // derived here, so it is logged as such and pushed with the redirect.
        let live = record
        record.meta.deletedAt = now
        try writer.withOrigin(.derived) { try writer.insertRecord(record) }
        try merge(loser: live, into: keeper.id, alreadyDeleted: true)
        return
      case .unique(let folded):
        record = folded
      }
    }
    try writer.insertRecord(record)
    touched.append(RecordKey(kind: kind, id: record.id))
    if record.meta.isLive {
      // Relationships cleared while this record was only known as a merge's keeper.
      try restoreDangling(kind, from: record.id, to: record.id)
    } else {
      deleted.append(RecordKey(kind: kind, id: record.id))
    }
  }

  private func mergeFields(_ incoming: [String: StampedValue], into id: UUID, kind: EntityKind, meta change: RecordChange) throws {
    guard var record = try writer.record(kind, id: id) else { return }
    var stamps = try stamps(kind, id)
    var changed = false
    // The identity group (the key and what it is computed from) is merged as one unit,
    // by the stamp of its key field.
    let group = Set(kind.schema.identityFields)
    var groupWins: Bool?
    if let keyField = kind.schema.semanticKeyField, let incomingKey = incoming[keyField] {
      groupWins = incomingKey.stamp > (stamps[keyField] ?? Stamp.lowest)
    }
    for (name, value) in incoming {
      guard let field = kind.schema.field(named: name) else { continue }
      let incomingValue = try redirected(value.value, field.type)
      let local = stamps[name]
      if let local, local != value.stamp, record[name] != incomingValue {
        counts.conflicts += 1
        let winner = value.stamp > local ? "remote" : "local"
        notes.append((.conflict, "\(kind.rawValue) \(record.displayText).\(name): \(winner) value kept"))
      }
      let wins = group.contains(name) && groupWins != nil ? (groupWins ?? false) : value.stamp > (local ?? Stamp.lowest)
      guard wins else { continue }
      stamps[name] = value.stamp
      if incomingValue != value.value {
        var repaired = try repairedValues(kind, id)
        repaired[name] = RepairedValue(value: value.value, stamp: value.stamp)
        try setRepairedValues(repaired, kind, id)
      }
      if record[name] != incomingValue {
        record[name] = incomingValue
        changed = true
      }
    }
    if change.createdAt < record.meta.createdAt {
      record.meta.createdAt = change.createdAt
      changed = true
    }
    if change.updatedAt > record.meta.updatedAt {
      record.meta.updatedAt = change.updatedAt
      changed = true
    }
    try setStamps(stamps, kind, id)
    guard changed else { return }
    if try revivable(record) {
      record.meta.deletedAt = nil
      stamps[Self.repairedMarker] = nil
      try setStamps(stamps, kind, id)
    }
    if record.meta.isLive {
      switch try resolveDuplicates(of: record) {
      case .loserOf(let keeper):
        // The new key belongs to a smaller record: this one is merged into it. It is
        // stored as a tombstone with the values just merged in, so that its stored values
        // match its stamps when it is folded again (a redirect learned later, a union).
        let live = record
        record.meta.deletedAt = now
        try writer.withOrigin(.derived) { try writer.updateRecord(record) }
        try merge(loser: live, into: keeper.id, alreadyDeleted: true)
        return
      case .unique(let folded):
        record = folded
      }
    }
    try writer.updateRecord(record)
    touched.append(RecordKey(kind: kind, id: id))
  }

  private func applyDeletion(_ kind: EntityKind, _ id: UUID, _ deletion: StampedValue) throws {
    var stamps = try stamps(kind, id)
    let known = stamps[RecordChange.deletedField]
    guard var record = try writer.record(kind, id: id) else { return }
    if record.meta.isLive || (known.map { deletion.stamp > $0 } ?? true) || stamps[Self.repairedMarker] != nil {
      stamps[RecordChange.deletedField] = max(deletion.stamp, known ?? deletion.stamp)
      // A user deleted it too: a record a repair removed stays deleted from now on.
      stamps[Self.repairedMarker] = nil
      try setStamps(stamps, kind, id)
    }
    guard record.meta.isLive else { return }
    record.meta.deletedAt = deletion.value.timestampValue ?? now
    record.meta.updatedAt = max(record.meta.updatedAt, record.meta.deletedAt ?? now)
    try writer.updateRecord(record)
    deleted.append(RecordKey(kind: kind, id: id))
  }

  /// References inside an incoming value follow redirects to their live end.
  private func redirected(_ value: FieldValue, _ type: FieldType?) throws -> FieldValue {
    switch (value, type) {
    case (.reference(let id), .reference(let kind)?):
      return .reference(try redirectEnd(kind, id))
    case (.referenceList(let ids), .referenceList(let kind)?):
      var seen = Set<UUID>()
      return .referenceList(try ids.map { try redirectEnd(kind, $0) }.filter { seen.insert($0).inserted })
    default:
      return value
    }
  }

  // MARK: Deduplication

  enum Resolution {
    /// The record may be written: no other live record has its key any more (those that
    /// had were merged into it; this is the record with their fields folded in).
    case unique(Record)
    /// A record with a smaller id holds the key: this one must be merged into it.
    case loserOf(Record)
  }

  /// For a live record about to be written: the keeper rule over every live record of
  /// its unique kind that shares its key.
  func resolveDuplicates(of record: Record) throws -> Resolution {
    guard record.kind.schema.identity.isUnique, let key = record.semanticKey else { return .unique(record) }
    let others = try writer.records(record.kind, semanticKey: key).filter { $0.id != record.id }
    guard !others.isEmpty else { return .unique(record) }
    let keeper = (others + [record]).min { UUID.keeperOrder($0.id, $1.id) } ?? record
    if keeper.id != record.id { return .loserOf(keeper) }
    var current = record
    for other in others {
      current = try merge(loser: other, into: record.id, keeperPending: current) ?? current
    }
    return .unique(current)
  }

  /// Merges `loser` into the record `keeperID`: folds fields by stamp, re-points every
  /// relationship, tombstones the loser and records the redirect (the last two are
  /// replicated: they go out with this replica's next push).
  /// - Parameters:
  ///   - alreadyDeleted: the loser was just stored as a tombstone by this import.
  ///   - keeperPending: the keeper's state when it is about to be written by the caller;
  ///     the folded state is then returned instead of written.
  @discardableResult
  func merge(loser: Record, into keeperID: UUID, alreadyDeleted: Bool = false, keeperPending: Record? = nil) throws -> Record? {
    let kind = loser.kind
    let keeperID = try keeperPending?.id ?? redirectEnd(kind, keeperID)
    guard keeperID != loser.id else { return nil }
    counts.merges += 1
    notes.append((.merge, "\(kind.rawValue) '\(loser.displayText)' \(loser.id.lowercaseText) merged into \(keeperID.lowercaseText)"))

    // A redirect learned from another replica is kept as it came (its stamp travels with
    // that value); one derived here points at the keeper.
    if try redirect(kind, loser.id) == nil { try setRedirect(keeperID, kind, loser.id) }
    if !alreadyDeleted {
      try writer.withOrigin(.derived) { try writer.tombstoneRecord(kind, id: loser.id, at: now) }
    } else if try stamps(kind, loser.id)[RecordChange.redirectField] == nil, var stored = try writer.record(kind, id: loser.id) {
      // Already deleted, but the redirect is new: log it as derived so it is stamped and
      // pushed, and replicas that cannot derive this merge themselves still learn it.
      stored.meta.updatedAt = max(stored.meta.updatedAt.addingTimeInterval(0.001), now)
      try writer.withOrigin(.derived) { try writer.updateRecord(stored) }
    }
    deleted.append(RecordKey(kind: kind, id: loser.id))

    // Fold the loser's fields into the keeper: highest stamp wins; an empty keeper field
    // takes the loser's value when neither has a stamp.
    let loserStamps = try stamps(kind, loser.id)
    let stored = try writer.record(kind, id: keeperID)
    guard var keeper = keeperPending ?? stored else {
      // The keeper has not arrived yet: what a repair cleared for the loser waits under
      // the keeper and is restored when it arrives, and the loser's values are folded in then.
      try moveDangling(kind, from: loser.id, to: keeperID)
      try rememberPendingFold(kind, loser.id, into: keeperID)
      return nil
    }
    var keeperStamps = try stamps(kind, keeperID)
    func newer(_ field: String) -> Bool {
      let theirs = loserStamps[field], ours = keeperStamps[field]
      if let theirs, let ours { return theirs > ours }
      if theirs != nil { return true }
      return ours == nil && keeper[field].isNull && !loser[field].isNull
    }
    // The identity group (same key on both sides) moves as one unit: the loser's spelling
    // of the name wins when its key was written later.
    let group = Set(kind.schema.identityFields)
    let groupFromLoser = kind.schema.semanticKeyField.map(newer) ?? false
    var keeperWritten = try repairedValues(kind, keeperID)
    let loserWritten = try repairedValues(kind, loser.id)
    for field in kind.schema.fields {
      let take = group.contains(field.name) ? groupFromLoser : newer(field.name)
      if take {
        if let theirs = loserStamps[field.name] { keeperStamps[field.name] = theirs }
        // The value as written travels with its stamp, and the keeper's value is derived
        // from it again (not copied from the loser's repaired value), so a relationship
        // the loser's repair cleared is repaired, remembered and restored for the keeper.
        if let written = loserWritten[field.name], written.stamp == loserStamps[field.name] {
          keeperWritten[field.name] = written
          keeper[field.name] = try redirected(written.value, field.type)
        } else {
          keeperWritten[field.name] = nil
          keeper[field.name] = loser[field.name]
        }
      }
    }
    try setRepairedValues(keeperWritten, kind, keeperID)
    keeper.meta.createdAt = min(keeper.meta.createdAt, loser.meta.createdAt)
    keeper.meta.updatedAt = max(keeper.meta.updatedAt, loser.meta.updatedAt)
    try setStamps(keeperStamps, kind, keeperID)
    try repoint(kind, from: loser.id, to: keeperID)
    try restoreDangling(kind, from: loser.id, to: keeperID)
    if keeperPending == nil {
      // A keeper a repair had removed comes back when what was folded in points it at
      // live records again; a deleted keeper still stores the folded values (its stamps
      // were just written), so later folds from it carry the right values.
      if !keeper.meta.isLive, try revivable(keeper) {
        keeperStamps[Self.repairedMarker] = nil
        try setStamps(keeperStamps, kind, keeperID)
        keeper.meta.deletedAt = nil
      }
      if keeper.meta.isLive {
        // The folded key may now equal a third record's: the keeper rule applies again.
        switch try resolveDuplicates(of: keeper) {
        case .loserOf(let other):
          let folded = keeper
          keeper.meta.deletedAt = now
          try writer.withOrigin(.derived) { try writer.updateRecord(keeper) }
          try merge(loser: folded, into: other.id, alreadyDeleted: true)
          return nil
        case .unique(let folded):
          keeper = folded
        }
      }
      try writer.updateRecord(keeper)
      touched.append(RecordKey(kind: kind, id: keeperID))
    }
    return keeper
  }

  private func repoint(_ kind: EntityKind, from loser: UUID, to keeper: UUID) throws {
    for (owner, field) in EntitySchema.references(to: kind) {
      for var record in try writer.fetch(RecordQuery(owner, filters: [.references(field.name, loser)], sort: [])) {
        try keepWrittenValue(of: record, field.name)
        if case .referenceList = field.type {
          var seen = Set<UUID>()
          record[field.name] = .referenceList(record[field.name].references.map { $0 == loser ? keeper : $0 }.filter { seen.insert($0).inserted })
        } else {
          record[field.name] = .reference(keeper)
        }
        try writer.updateRecord(record)
        touched.append(RecordKey(kind: owner, id: record.id))
      }
    }
  }

  // MARK: Repair

  /// Makes every live relationship touched by this import point at a live record:
  /// references to merged records follow the redirect; references to deleted records
  /// are cleared (optional and to-many) or take their record with them (required).
  /// Every replica derives the same repairs from the same data, so they are not pushed.
  func repairReferences() throws {
    var rounds = 0
    while !(touched.isEmpty && deleted.isEmpty) && rounds < 1_000 {
      rounds += 1
      let deletedNow = deleted, touchedNow = touched
      deleted = []
      touched = []
      for key in deletedNow {
        for (owner, field) in EntitySchema.references(to: key.kind) {
          for record in try writer.fetch(RecordQuery(owner, filters: [.references(field.name, key.id)], sort: [])) {
            try repair(record, field: field, target: key)
          }
        }
      }
      for key in Set(touchedNow) {
        // A record a repair removed comes back once its relationships point at live
        // records again (the record they name may have arrived later in the same page).
        if var removed = try writer.record(key.kind, id: key.id), try revivable(removed) {
          var stamps = try stamps(key.kind, key.id)
          stamps[Self.repairedMarker] = nil
          try setStamps(stamps, key.kind, key.id)
          removed.meta.deletedAt = nil
          if case .loserOf(let keeper) = try resolveDuplicates(of: removed) {
            try merge(loser: removed, into: keeper.id, alreadyDeleted: true)
            continue
          }
          try writer.updateRecord(removed)
          touched.append(key)
        }
        guard let record = try writer.liveRecord(key.kind, id: key.id) else { continue }
        for field in key.kind.schema.relationships {
          guard let targetKind = field.type.referencedKind else { continue }
          for target in record[field.name].referenceIDs {
            guard let stored = try writer.record(targetKind, id: target), !stored.meta.isLive else { continue }
            guard let current = try writer.liveRecord(key.kind, id: key.id) else { break }
            try repair(current, field: field, target: RecordKey(kind: targetKind, id: target))
          }
        }
      }
    }
  }

  private func repair(_ record: Record, field: FieldDescriptor, target: RecordKey) throws {
    let written = record[field.name]
    var record = record
    let end = try redirectEnd(target.kind, target.id)
    let replacement: UUID? = try end != target.id && writer.liveRecord(target.kind, id: end) != nil ? end : nil
    if case .referenceList = field.type {
      var seen = Set<UUID>()
      record[field.name] = .referenceList(record[field.name].references.compactMap { $0 == target.id ? replacement : $0 }.filter { seen.insert($0).inserted })
    } else if let replacement {
      record[field.name] = .reference(replacement)
    } else if field.deleteRule == .nullify {
      record[field.name] = .null
    } else {
      // Required relationship to a deleted record (cascade, or deny that another device
      // could not enforce): the record goes with it; a recipe keeps its raw lines.
      try remember(record, field: field.name, target: target, removedRecord: true)
      var stamps = try stamps(record.kind, record.id)
      stamps[Self.repairedMarker] = Stamp.lowest
      try setStamps(stamps, record.kind, record.id)
      try writer.tombstoneRecord(record.kind, id: record.id, at: now)
      deleted.append(RecordKey(kind: record.kind, id: record.id))
      return
    }
    if replacement == nil { try remember(record, field: field.name, target: target, removedRecord: false) }
    try keepWrittenValue(written, of: record, field.name)
    try writer.updateRecord(record)
    touched.append(RecordKey(kind: record.kind, id: record.id))
  }

  /// Keeps the value a field held as written before a derived change (a re-point, a
  /// repair) replaces it without a new stamp, so the replica exports what was written.
  private func keepWrittenValue(_ value: FieldValue? = nil, of record: Record, _ field: String) throws {
    let stamp = try stamps(record.kind, record.id)[field]
    var repaired = try repairedValues(record.kind, record.id)
    guard repaired[field]?.stamp != stamp else { return }
    repaired[field] = RepairedValue(value: value ?? record[field], stamp: stamp)
    try setRepairedValues(repaired, record.kind, record.id)
  }

  private func remember(_ record: Record, field: String, target: RecordKey, removedRecord: Bool) throws {
    // Kept under the end of the target's redirect chain: the record whose redirect, if one
    // is ever learned, says where the relationship should have gone.
    let target = RecordKey(kind: target.kind, id: try redirectEnd(target.kind, target.id))
    var list = try danglingReferences(to: target.kind, target.id)
    let stamp = try stamps(record.kind, record.id)[field]
    let entry = DanglingReference(kind: record.kind, id: record.id, field: field, removedRecord: removedRecord, stamp: stamp)
    guard !list.contains(entry) else { return }
    list.append(entry)
    try setDanglingReferences(list, to: target.kind, target.id)
  }

  /// Hands the relationships remembered under a merged record to its keeper.
  private func moveDangling(_ kind: EntityKind, from loser: UUID, to keeper: UUID) throws {
    let moving = try danglingReferences(to: kind, loser)
    guard !moving.isEmpty else { return }
    var list = try danglingReferences(to: kind, keeper)
    list.append(contentsOf: moving.filter { !list.contains($0) })
    try setDanglingReferences(list, to: kind, keeper)
    try setDanglingReferences([], to: kind, loser)
  }

  /// A redirect for a record this replica had treated as plainly deleted: restores the
  /// relationships the repair cleared, now pointing at the keeper, and brings back
  /// records the repair removed (unless a user deleted them too).
  private func restoreDangling(_ kind: EntityKind, from loser: UUID, to keeper: UUID) throws {
    let list = try danglingReferences(to: kind, loser)
    guard !list.isEmpty else { return }
    try setDanglingReferences([], to: kind, loser)
    for entry in list {
      guard var record = try writer.record(entry.kind, id: entry.id), let field = entry.kind.schema.field(named: entry.field),
        try stamps(entry.kind, entry.id)[entry.field] == entry.stamp
      else { continue }
      if !record.meta.isLive {
        var stamps = try stamps(entry.kind, entry.id)
        guard entry.removedRecord, stamps[Self.repairedMarker] != nil else { continue }
        record.meta.deletedAt = nil
        stamps[Self.repairedMarker] = nil
        try setStamps(stamps, entry.kind, entry.id)
      }
      switch field.type {
      case .referenceList:
        let ids = record[entry.field].references
        if !ids.contains(keeper) { record[entry.field] = .referenceList(ids + [keeper]) }
      default:
        guard record[entry.field].isNull || entry.removedRecord else { continue }
        record[entry.field] = .reference(keeper)
      }
      if record.meta.isLive, case .loserOf(let other) = try resolveDuplicates(of: record) {
        record.meta.deletedAt = now
        try writer.updateRecord(record)
        try merge(loser: record, into: other.id, alreadyDeleted: true)
        continue
      }
      try writer.updateRecord(record)
      touched.append(RecordKey(kind: entry.kind, id: entry.id))
    }
  }
}

extension Merger {
  /// Marks, among a record's stamps, a deletion this replica derived because a required
  /// relationship pointed at a deleted record. Such a record comes back when a later
  /// write points it at a live record again (it was never deleted by a user).
  static let repairedMarker = "@repaired"

  /// Whether a record deleted only by a repair may come back: no required or cascading
  /// relationship of it points at a deleted record. A record not stored here yet counts
  /// as live, as it does for a record arriving with a relationship to it: it is on its
  /// way (another device pushes a record at its first change, so a meal re-planned with a
  /// new recipe can arrive pages or syncs before that recipe), and should it arrive
  /// deleted, the repair removes this record again.
  func revivable(_ record: Record) throws -> Bool {
    guard !record.meta.isLive, try stamps(record.kind, record.id)[Self.repairedMarker] != nil else { return false }
    for field in record.kind.schema.relationships where field.deleteRule != .nullify {
      guard let kind = field.type.referencedKind else { continue }
      for id in record[field.name].referenceIDs {
        if let target = try writer.record(kind, id: id), !target.meta.isLive { return false }
      }
      if record[field.name].isNull && !field.isOptional { return false }
    }
    return true
  }
}

/// What one import did.
struct SyncCounts {
  var imports = 0
  var conflicts = 0
  var merges = 0
  var errors = 0
}

extension Stamp {
  /// Lower than every real stamp: the stamp of a value no write has stamped yet.
  static let lowest = Stamp(time: Int64.min, counter: Int32.min, replica: "")
}

extension FieldValue {
  var timestampValue: Date? { if case .timestamp(let date) = self { date } else { nil } }
  /// The ids of a to-one or to-many reference value.
  var referenceIDs: [UUID] {
    switch self {
    case .reference(let id): [id]
    case .referenceList(let ids): ids
    default: []
    }
  }
}
