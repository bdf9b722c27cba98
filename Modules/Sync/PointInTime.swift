public import Foundation
public import Model
public import Persistence

/// Restoring a household to a point in time: the changes that bring every record back to
/// how a device showed it at a time T — deleted records back, renamed ones renamed back,
/// values written since put back, records created since deleted — computed from its
/// replicated states and the history it keeps (Docs/SYNC.md, "Restoring a point in time").
///
/// The plan is register writes of this device, stamped later than every value they
/// replace, applied in one transaction with the view brought up to date, and pushed by the
/// next sync like a merge's: every device that joins them shows what the view of the
/// states at T showed. Nothing is taken out of the history; a restore is itself new history.
///
/// ```swift
/// let plan = try PointInTime.plan(before: yesterday, in: store, now: Date())
/// print(plan.summary.joined(separator: "\n"))
/// try PointInTime.apply(plan, to: store, now: Date())
/// try engine.sync()
/// ```
public enum PointInTime {
  /// One register written by a restore.
  struct Write: Sendable, Hashable {
    let key: RecordKey
    let name: String
    let value: FieldValue
  }

  /// A record a restore leaves showing otherwise than at T.
  public struct Left: Sendable, Hashable, CustomStringConvertible {
    /// Why a record cannot be shown as it was.
    public enum Reason: String, Sendable, Hashable {
      /// The history this device keeps does not reach T for it (its older entries were
      /// dropped); it and the records sharing its entity are left as they are.
      case historyNotKept
      /// It was merged with another record since T: merge edges only grow, so the records
      /// stay one entity. Also a record that refers to one merged since T: the reference
      /// shows the entity's keeper.
      case mergedSince
      /// Its states at T cannot be written back so that it shows as then (a register the
      /// record did not hold at T now decides, or it refers to a record left as it is).
      case notRestorable
    }

    /// The record's kind.
    public let kind: EntityKind
    /// The record's id.
    public let id: UUID
    /// Why.
    public let reason: Reason

    /// "kind id (reason)".
    public var description: String { "\(kind.rawValue) \(id.lowercaseText) (\(reason.rawValue))" }
  }

  /// What a restore to T changes.
  public struct Plan: Sendable, Hashable {
    /// T: the view of the states as they were at this time is restored.
    public let time: Date
    let writes: [Write]
    /// The store's count of state writes when the plan was made: a plan is applied only to
    /// the states it was computed from.
    let stateWrites: Int64
    /// Records not shown now that come back.
    public let restored: Int
    /// Records shown now that were not at T (created since, or deleted before it and
    /// re-created since), deleted again.
    public let removed: Int
    /// Records shown now whose fields are put back, of which ``renamed`` had their name
    /// (display field) changed.
    public let changed: Int
    /// Records shown now whose name (display field) is put back.
    public let renamed: Int
    /// Records left showing otherwise than at T, with why.
    public let notKept: [Left]

    /// How many register writes the plan makes: 0 when everything already shows as at T.
    public var writeCount: Int { writes.count }

    /// One line per count, for a person.
    public var summary: [String] {
      var lines = [
        "\(restored) deleted record\(restored == 1 ? "" : "s") restored",
        "\(removed) record\(removed == 1 ? "" : "s") created since deleted",
        "\(changed) record\(changed == 1 ? "" : "s") changed back (\(renamed) renamed)",
      ]
      if !notKept.isEmpty {
        lines.append("\(notKept.count) left showing otherwise (merged with another since, or history not kept back to then)")
      }
      return lines
    }
  }

  /// The plan that brings the store's records back to how the store showed them at `time`.
  /// - Parameters:
  ///   - time: the point in time the records go back to.
  ///   - store: the device's store.
  ///   - now: the device's time; a `time` after it is refused.
  /// - Throws: ``PointInTimeError``: a time in the future or before the store's first
  ///   record, no synced record, or local changes not yet stamped (sync first).
  public static func plan(before time: Date, in store: any Store, now: Date) throws -> Plan {
    guard time <= now else { throw PointInTimeError.future(time) }
    return try store.read { reader in
      try refuseUnstamped(reader)
      var states: [RecordKey: RecordState] = [:]
      for kind in EntityKind.allCases {
        let keys = try reader.syncStateIDs(kind).map { RecordKey(kind: kind, id: $0) }
        states.merge(try reader.states(keys)) { first, _ in first }
      }
      // States are dated on the time authority's clock, `offset` ms ahead of the store's.
      let offset = try reader.syncInteger(ReplicaKeys.clockOffset)
      guard let earliest = states.values.map(\.createdAt).min() else { throw PointInTimeError.nothingSynced }
      let first = earliest.addingTimeInterval(-Double(offset) / 1000)
      guard time >= first else { throw PointInTimeError.beforeFirstChange(time, first: first) }
      let replica = try reader.metadata(forKey: ReplicaKeys.replicaID) ?? ""
      let past = try StatesAtTime(states, before: time, replica: replica, offset: offset, reader: reader)
      let planner = Planner(time: time, now: states, atT: past.states, unknown: past.unknown, replica: replica)
      return planner.plan(stateWrites: try reader.syncInteger(ReplicaKeys.stateWrites))
    }
  }

  /// Applies `plan` in one transaction: its registers written, stamped by this device's
  /// clock later than every value they replace, the view brought up to date, and the
  /// records marked for the next sync to push. Killed midway, nothing of it applies.
  /// - Parameters:
  ///   - plan: the plan ``plan(before:in:now:)`` made.
  ///   - store: the store the plan was made from.
  ///   - now: the device's time; the stamps' physical part is it moved by the
  ///     offset to the time authority's clock the last sync learned.
  /// - Returns: how many registers were written.
  /// - Throws: ``PointInTimeError/changedSincePlanned`` when the states changed since the
  ///   plan was made (a sync ran), ``PointInTimeError/unsyncedChanges``; then nothing is
  ///   written.
  @discardableResult
  public static func apply(_ plan: Plan, to store: any Store, now: Date) throws -> Int {
    guard !plan.writes.isEmpty else { return 0 }
    return try store.write(origin: .sync) { writer in
      try refuseUnstamped(writer)
      guard try writer.syncInteger(ReplicaKeys.stateWrites) == plan.stateWrites else { throw PointInTimeError.changedSincePlanned }
      guard let replica = try writer.metadata(forKey: ReplicaKeys.replicaID) else { throw PointInTimeError.nothingSynced }
      let states = try StateStore(writer, time: now)
      let keys = Set(plan.writes.map(\.key))
      try states.preload(keys)
      var clock = try writer.storedReplicaClock()
      // Stamps are on the time authority's clock: the store's moved by the offset the last
      // sync learned.
      let physical = now.millisecondsSince1970 &+ (try writer.syncInteger(ReplicaKeys.clockOffset))
      var written = 0
      for write in plan.writes {
        guard var state = try states.state(write.key) else { continue }
        let reading = clock.tick(physical: physical)
        let stamp = Stamp(time: reading.time, counter: reading.counter, replica: replica)
        guard state.write(write.name, StampedValue(value: write.value, stamp: stamp)) else { continue }
        try states.set(state)
        written += 1
      }
      let view = try ViewUpdater(components: IdentityComponents(states: states), now: now)
      try view.refresh(keys.sorted())
      try states.flush()
      try writer.setMetadata(clock.encoded, forKey: ReplicaKeys.clock)
      for key in keys.sorted() { try writer.setMetadata("", forKey: ReplicaKeys.push(key)) }
      return written
    }
  }

  /// A time as a person types it, in UTC: "YYYY-MM-DD HH:MM", with seconds, with a `T`
  /// between date and time, or ISO 8601 with a zone (and fractions of a second); nil for
  /// anything else.
  public static func time(parsing text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let iso = ISO8601DateFormatter()
    if let date = iso.date(from: trimmed) { return date }
    iso.formatOptions.insert(.withFractionalSeconds)
    if let date = iso.date(from: trimmed) { return date }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: trimmed) { return date }
    }
    return nil
  }

  private static func refuseUnstamped(_ reader: any StoreReader) throws {
    guard try reader.changes(after: try reader.syncInteger(ReplicaKeys.stamped), limit: .max).allSatisfy({ !$0.isUserWrite })
    else { throw PointInTimeError.unsyncedChanges }
  }
}
