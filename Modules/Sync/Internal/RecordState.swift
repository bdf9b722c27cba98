import Foundation
import Model

/// One record's replicated state: a register per field holding the value *as written*
/// and the stamp of the write, an existence register, and the merge edges that name the
/// record as a loser. Nothing a device derives (a keeper, a re-pointed reference, a
/// hidden record) is kept here; the view computes those from the state (`EntityView`).
///
/// Applying what another device sent is ``join(_:)``: per register the higher
/// (stamp, value), the earliest creation time, the latest update time, the union of the
/// edges. It is idempotent, commutative and associative, so pages, duplicates, replays and
/// interrupted syncs cannot change the outcome (`JoinLawTests`).
struct RecordState: Hashable {
  let kind: EntityKind
  let id: UUID
  var createdAt: Date
  var updatedAt: Date
  var ownerID: String
  var sharingScope: SharingScope
  /// Schema fields (and fields a newer version wrote, kept as they came), the existence
  /// register ``existsField`` and one ``edgePrefix`` entry per merge edge.
  private(set) var registers: [String: StampedValue]

  /// The existence register: `true` written by a create or a re-create, `false` by a
  /// delete. No register reads as live (a record only exists once something created it).
  static let existsField = RecordChange.existsField
  /// A merge edge loser → keeper is the register `@merge:<keeper id>` of the loser,
  /// holding the keeper's id. Edges are only ever added: a grow-only set.
  static let edgePrefix = RecordChange.mergeFieldPrefix

  init(
    kind: EntityKind, id: UUID, createdAt: Date, updatedAt: Date, ownerID: String, sharingScope: SharingScope,
    registers: [String: StampedValue] = [:]
  ) {
    self.kind = kind
    self.id = id
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.ownerID = ownerID
    self.sharingScope = sharingScope
    self.registers = registers
  }

  /// The state a received change describes. Changes pushed by earlier versions carry a
  /// deletion as `@deleted` and a merge as `@redirect`; a tombstone sent with a redirect
  /// was the merge's, not a user's delete.
  init(_ change: RecordChange) {
    let legacyRedirect = change.fields[RecordChange.redirectField]
    guard legacyRedirect != nil || change.fields[RecordChange.deletedField] != nil else {
      // Today's changes: each field names its register once, and a register joined with
      // nothing holds what arrived, so the change's fields are the registers as they are
      // (the dictionary is taken whole, not hashed again name by name).
      self.init(
        kind: change.kind, id: change.id, createdAt: change.createdAt, updatedAt: change.updatedAt, ownerID: change.ownerID,
        sharingScope: change.sharingScope, registers: change.fields
      )
      return
    }
    var registers: [String: StampedValue] = [:]
    registers.reserveCapacity(change.fields.count)
    for (name, value) in change.fields {
      switch name {
      case RecordChange.redirectField:
        guard let keeper = value.value.reference, keeper != change.id else { continue }
        registers[Self.edgePrefix + keeper.lowercaseText] = value
      case RecordChange.deletedField:
        guard legacyRedirect == nil else { continue }
        registers[Self.existsField] = Self.join(registers[Self.existsField], StampedValue(value: .bool(false), stamp: value.stamp))
      default:
        registers[name] = Self.join(registers[name], value)
      }
    }
    self.init(
      kind: change.kind, id: change.id, createdAt: change.createdAt, updatedAt: change.updatedAt, ownerID: change.ownerID,
      sharingScope: change.sharingScope, registers: registers
    )
  }

  subscript(field: String) -> StampedValue? { registers[field] }

  /// Writes a register when `value` is higher than what it holds; returns whether it was.
  @discardableResult
  mutating func write(_ field: String, _ value: StampedValue) -> Bool {
    // One lookup for a new register (most writes): `value` goes in, and the register it
    // replaced, if any, is put back when it was higher.
    guard let old = registers.updateValue(value, forKey: field) else { return true }
    guard Self.join(old, value) == old else { return true }
    if old != value { registers[field] = old }
    return false
  }

  /// Replaces a register whatever it holds: only for this device's own writes that no
  /// other device has received (`ClockRepair`), never for a join.
  mutating func replace(_ field: String, with value: StampedValue) {
    registers[field] = value
  }

  /// Whether the existence register says deleted.
  var isDeleted: Bool { registers[Self.existsField]?.value == .bool(false) }

  /// Whether this record was merged into another (it holds an edge register).
  var hasEdges: Bool { registers.keys.contains { $0.hasPrefix(Self.edgePrefix) } }

  /// The keepers this record was merged into.
  var keepers: [UUID] {
    registers.compactMap { name, value in name.hasPrefix(Self.edgePrefix) ? value.value.reference : nil }.sorted(by: UUID.keeperOrder)
  }

  /// Adds the edge self → keeper; returns whether it is new.
  @discardableResult
  mutating func addEdge(to keeper: UUID, stamp: Stamp) -> Bool {
    guard keeper != id else { return false }
    let name = Self.edgePrefix + keeper.lowercaseText
    guard registers[name] == nil else { return false }
    registers[name] = StampedValue(value: .reference(keeper), stamp: stamp)
    return true
  }

  /// The join: per register the higher (stamp, value), min of creation times, max of update
  /// times and of sharing scope, and the owner that came with the higher existence
  /// register (``ownerWins(_:over:)``).
  /// - Returns: whether `self` changed.
  @discardableResult
  mutating func join(_ other: RecordState) -> Bool {
    var changed = false
    if other.createdAt < createdAt {
      createdAt = other.createdAt
      changed = true
    }
    if other.updatedAt > updatedAt {
      updatedAt = other.updatedAt
      changed = true
    }
    if Self.ownerWins((other[Self.existsField], other.ownerID), over: (registers[Self.existsField], ownerID)) {
      ownerID = other.ownerID
      changed = true
    }
    if other.sharingScope.rawValue > sharingScope.rawValue {
      sharingScope = other.sharingScope
      changed = true
    }
    #if DEBUG
      if SyncMutation.active == .joinKeepsFirstWriter {
        for (name, value) in other.registers where registers[name] == nil && write(name, value) { changed = true }
        return changed
      }
    #endif
    for (name, value) in other.registers where write(name, value) { changed = true }
    return changed
  }

  /// Whether an owner replaces another in a join. The owner is whoever created the record:
  /// it travels with the existence register a create (or a delete, or a re-create) writes,
  /// so the owner of the higher existence register wins, and an owner sent with no higher
  /// existence register changes nothing. A change that only edits fields cannot claim a
  /// record whatever owner it names; a later re-create can. Equal (or absent) existence
  /// registers leave the greater owner, so the order is total and the join commutative.
  static func ownerWins(_ incoming: (StampedValue?, String), over current: (StampedValue?, String)) -> Bool {
    if incoming.0 != current.0 {
      guard let theirs = incoming.0 else { return false }
      guard let mine = current.0 else { return true }
      return join(mine, theirs) == theirs
    }
    return incoming.1 > current.1
  }

  /// The higher of two register values: by stamp, and for equal stamps (values written
  /// at a fixed tier, `Stamp.migration`) by the value's encoded bytes, so the order is
  /// total and the join commutative whatever arrives.
  static func join(_ current: StampedValue?, _ incoming: StampedValue) -> StampedValue {
    guard let current else { return incoming }
    if current.stamp != incoming.stamp { return incoming.stamp > current.stamp ? incoming : current }
    if current.value == incoming.value { return current }
    return ChangeBatchCoding.valueBytes(incoming.value).lexicographicallyPrecedes(ChangeBatchCoding.valueBytes(current.value))
      ? current : incoming
  }

  /// The registers named by `fields` (and the existence register and edges when asked), as
  /// a change to send; nil when none is left.
  func change(fields: some Sequence<String>, including include: (StampedValue) -> Bool) -> RecordChange? {
    var values: [String: StampedValue] = [:]
    for field in fields {
      if let value = registers[field], include(value) { values[field] = value }
    }
    guard !values.isEmpty else { return nil }
    return RecordChange(
      kind: kind, id: id, createdAt: createdAt, updatedAt: updatedAt, ownerID: ownerID, sharingScope: sharingScope, fields: values
    )
  }

  /// The record's dates, owner and sharing scope with no register: what a device pushes
  /// for a record it wrote when every register it wrote was replaced by a later write
  /// before it pushed, so that the others still join the dates its write moved.
  var metadataChange: RecordChange {
    RecordChange(kind: kind, id: id, createdAt: createdAt, updatedAt: updatedAt, ownerID: ownerID, sharingScope: sharingScope, fields: [:])
  }

  /// Every register, as a change (for storing the state).
  var wholeChange: RecordChange {
    RecordChange(
      kind: kind, id: id, createdAt: createdAt, updatedAt: updatedAt, ownerID: ownerID, sharingScope: sharingScope, fields: registers)
  }

  /// The names of every register.
  var fieldNames: [String] { registers.keys.sorted() }

  /// The names of the edge registers and the existence register.
  var pseudoFields: [String] { registers.keys.filter { $0.hasPrefix("@") }.sorted() }
}

extension Stamp {
  /// The stamp of every value a migration writes: the same on every device that migrates
  /// a copy of the same file, so their states are equal, and lower than any other write.
  static let migration = Stamp(time: Int64.min + 1, counter: 0, replica: "")
  /// The stamp of the kept record's values in a merge a migration made: above what the
  /// migration wrote, the same on every device.
  static let migrationMerge = Stamp(time: Int64.min + 1, counter: 1, replica: "")
  /// The stamp of a new record's name and key, created at `time` (ms): a creation says
  /// "this should exist", not "call it this", so any rename (a real stamp) wins over it and
  /// a device that creates "Produce" offline cannot undo another device's rename of it.
  /// Creations still order among themselves by time: the later spelling wins.
  static func creation(_ replica: String, at time: Int64) -> Stamp {
    Stamp(time: time - creationBand, counter: 0, replica: replica)
  }
}
