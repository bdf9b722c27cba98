import Foundation
import Model
import Persistence

/// A record of one kind, as sync keys it.
struct RecordKey: Hashable, Comparable {
  let kind: EntityKind
  let id: UUID

  /// One word for the hasher instead of the id's 16 bytes and the kind: sync hashes a
  /// record's key several times for every record it touches. Ids are random or name-based
  /// UUIDs, so their halves folded together spread as well as the bytes do.
  func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: id.uuid) { bytes in
      hasher.combine(bytes.loadUnaligned(as: UInt64.self) ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &+ UInt64(kind.ordinal))
    }
  }

  static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
    lhs.kind.ordinal != rhs.kind.ordinal ? lhs.kind.ordinal < rhs.kind.ordinal : UUID.keeperOrder(lhs.id, rhs.id)
  }
}

/// A semantic key of a unique kind, as the key index holds it.
struct SharedKey: Hashable {
  let kind: EntityKind
  let key: String

  /// The key a state of a unique kind is one entity with others by: the key its identity
  /// fields give (`Record.key(of:_:)`), whatever its key register holds, or its key
  /// register when it lacks a field the key is computed from.
  init?(_ state: RecordState) {
    self.init(state.kind) { state[$0]?.value }
  }

  init(kind: EntityKind, key: String) {
    self.kind = kind
    self.key = key
  }

  /// The key a record of a unique kind is one entity with others by, from `value` (its
  /// fields as a state's registers, a row or an arriving change hold them): the key its
  /// identity fields give when it holds every required one (a field it lacks reads as its
  /// default), else what its key field holds. A key field that disagrees with the fields
  /// (a batch an old build wrote, a name written without its key) never decides.
  init?(_ kind: EntityKind, keyFieldValue value: (String) -> FieldValue?) {
    let schema = kind.schema
    guard schema.identity.isUnique, let keyField = schema.semanticKeyField else { return nil }
    if let computed = Self.computed(kind, schema, value) {
      self.init(kind: kind, key: computed)
      return
    }
    guard let text = value(keyField)?.text, !text.isEmpty else { return nil }
    self.init(kind: kind, key: text)
  }

  /// The key the identity fields `value` holds give, or nil when a required one is missing.
  static func computed(_ kind: EntityKind, _ schema: EntitySchema, _ value: (String) -> FieldValue?) -> String? {
    guard holdsKeyInputs(schema, value) else { return nil }
    let key = Record.key(of: kind) { name in value(name) ?? schema.field(named: name)?.defaultValue ?? .null }
    guard let key, !key.isEmpty else { return nil }
    return key
  }

  /// Whether `value` holds every field the key is computed from that has no default and is
  /// not optional (a field it lacks then reads as its default, or null).
  static func holdsKeyInputs(_ schema: EntitySchema, _ value: (String) -> FieldValue?) -> Bool {
    schema.keyInputs.allSatisfy { name in
      value(name) != nil || schema.field(named: name).map { $0.isOptional || $0.defaultValue != nil } == true
    }
  }
}

/// A replica's sync bookkeeping, kept in its store's metadata table so it survives
/// restarts and commits or rolls back with the data it describes.
enum ReplicaKeys {
  static let replicaID = "sync.replica"
  static let clock = "sync.clock"
  /// How far the time authority's clock lay ahead of the store's at the last sync, in ms.
  static let clockOffset = "sync.clockOffset"
  /// Change-log sequence up to which local changes were written into the state.
  static let stamped = "sync.stamped"
  /// Change-log sequence up to which local changes were pushed.
  static let pushed = "sync.pushed"
  /// Cloud sequence up to which batches were pulled and applied.
  static let token = "sync.token"
  /// The identifier of the cloud the token and the pushed position refer to.
  static let cloud = "sync.cloud"
  /// ``currentFormat`` once the store keeps its sync state as registers (`StateStore`) in
  /// the store's sync states (`StoreWriter.setSyncState`), which index the key each
  /// holds; stores written by earlier versions are converted once (`LegacyConversion`):
  /// "2" to "4" kept the states as metadata entries ("2" without a key index, "3" with an
  /// index entry per key and record, "4" with one per key).
  static let format = "sync.format"
  static let currentFormat = "5"

  /// How many transactions have written states: a sync that finds the count it left
  /// knows that no one else wrote a state since (``DecodedStates``).
  static let stateWrites = "sync.stateWrites"
  /// Reverse merge edges, `sync.edge/<kind>/<keeper>/<loser>`: which records were merged
  /// into a record (the loser's state holds the edge itself).
  static let edgePrefix = "sync.edge/"
  /// `sync.ref/<kind>/<target>/<owner kind>/<owner>`: a record whose view shows a
  /// reference to `target` other than as written (re-pointed to a keeper, cleared, or
  /// hiding the record), so the view is computed again when the target changes.
  static let referencePrefix = "sync.ref/"
  /// Records with merge edges this replica made that are not pushed yet.
  static let pushPrefix = "sync.push/"
  /// `sync.held/<sequence>`: a batch kept unread until an upgrade (``HeldBatch``, as JSON).
  static let heldPrefix = "sync.held/"
  /// The key of a held batch: its cloud sequence, zero-padded so keys sort in log order.
  static func held(_ sequence: Int64) -> String { heldPrefix + padded(sequence, to: 19) }

  /// `value` in decimal with leading zeros to `width` digits, so keys sort by it.
  private static func padded(_ value: Int64, to width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// `sync.aside/<sequence>/<index>`: a change (or, at index `batch`, a whole batch) of
  /// the cloud's log set aside by the pull for good (``SetAsideChange``), zero-padded so
  /// keys sort in log order.
  static let asidePrefix = "sync.aside/"
  /// `sync.waiting/<sequence>/<index>`: a set-aside change that waits for this device's
  /// clock; kept apart so that each sync reads only these.
  static let waitingPrefix = "sync.waiting/"
  static func aside(_ item: SetAsideChange) -> String {
    let place = item.index.map { padded(Int64($0), to: 6) } ?? "batch"
    return (item.waitsUntil == nil ? asidePrefix : waitingPrefix) + padded(item.sequence, to: 19) + "/" + place
  }
  /// How many changes were set aside past ``SetAsideChange/maximumKept`` and not kept.
  static let asideDropped = "sync.asideDropped"
  /// `sync.sent/<batch id>`: a batch this device pushed and has not pulled back yet. A
  /// batch of this device's replica without one is another device's that claims to be this
  /// one (an earlier server let a token take over a replica): it is joined like any other,
  /// so this device shows what the others show.
  static let sentPrefix = "sync.sent/"
  static func sent(_ batchID: String) -> String { sentPrefix + batchID }
  /// `sync.unshown/<kind>/<id>`: a record whose view the schema refuses, with the reason.
  static let unshownPrefix = "sync.unshown/"
  static func unshown(_ key: RecordKey) -> String { entry(unshownPrefix, key) }

  static func reverseEdge(_ kind: EntityKind, keeper: UUID, loser: UUID) -> String {
    reverseEdgePrefix(of: RecordKey(kind: kind, id: keeper)) + loser.lowercaseText
  }
  /// The prefix of every reverse edge into `keeper`.
  static func reverseEdgePrefix(of keeper: RecordKey) -> String {
    edgePrefix + keeper.kind.rawValue + "/" + keeper.id.lowercaseText + "/"
  }
  /// `sync.edgeCount`: how many reverse edges the store holds (``StateStore``).
  static let edgeCount = "sync.edgeCount"
  static func reference(to target: RecordKey, from owner: RecordKey) -> String {
    entry(referencePrefix, target, then: "/" + path(owner))
  }
  /// The prefix of the `sync.ref` entries of the records whose view depends on `target`.
  static func references(to target: RecordKey) -> String { entry(referencePrefix, target, then: "/") }
  static func push(_ key: RecordKey) -> String { entry(pushPrefix, key) }
  /// The texts one after another, written into one buffer (`+` makes a string per step).
  private static func joined(_ parts: String...) -> String {
    String(unsafeUninitializedCapacity: parts.reduce(0) { $0 + $1.utf8.count }) { buffer in
      parts.reduce(0) { offset, part in copy(part, into: buffer, at: offset) }
    }
  }

  /// Copies the UTF-8 of `text` into `buffer` at `offset`; returns the offset after it.
  private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
    var text = text
    return text.withUTF8 { bytes in
      guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return offset }
      (target + offset).update(from: source, count: bytes.count)
      return offset + bytes.count
    }
  }

  static func path(_ key: RecordKey) -> String { entry("", key) }

  /// `<prefix><kind>/<id><rest>`, written into one buffer (these keys are made for every
  /// record a sync touches).
  private static func entry(_ prefix: String, _ key: RecordKey, then rest: String = "") -> String {
    let kind = key.kind.rawValue
    let capacity = prefix.utf8.count + kind.utf8.count + 37 + rest.utf8.count
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      let afterKind = copy(kind, into: buffer, at: copy(prefix, into: buffer, at: 0))
      buffer[afterKind] = UInt8(ascii: "/")
      return copy(rest, into: buffer, at: key.id.writeLowercaseText(into: buffer, at: afterKind + 1))
    }
  }

  /// Parses `<kind>/<id>` that starts `offset` bytes into `entry` (after a prefix of that
  /// many bytes of UTF-8); what follows the id is ignored.
  static func parsePath(_ entry: String, from offset: Int) -> RecordKey? {
    var entry = entry
    return entry.withUTF8 { bytes -> RecordKey? in
      guard offset <= bytes.count, let slash = bytes[offset...].firstIndex(of: UInt8(ascii: "/")), bytes.count - slash > 36,
        let kind = EntityKind(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<slash]), as: UTF8.self)),
        let id = UUID(hyphenatedHex: UnsafeBufferPointer(rebasing: bytes[(slash + 1)..<(slash + 37)]))
      else { return nil }
      return RecordKey(kind: kind, id: id)
    }
  }

  /// The id that `entry` ends with `offset` bytes in (after a prefix of that many bytes of
  /// UTF-8), or nil when what follows the prefix is not exactly one id.
  static func trailingID(_ entry: String, from offset: Int) -> UUID? {
    var entry = entry
    return entry.withUTF8 { bytes in
      guard offset >= 0, bytes.count == offset + 36 else { return nil }
      return UUID(hyphenatedHex: UnsafeBufferPointer(rebasing: bytes[offset...]))
    }
  }
}

extension StoreReader {
  func syncInteger(_ key: String) throws -> Int64 { try metadata(forKey: key).flatMap { Int64($0) } ?? 0 }

  /// The replica's clock, pulled back to physical time when it lies beyond `limit` (ms:
  /// physical time plus the allowed skew), where an earlier version let a stamp from the
  /// future move it (``HybridLogicalClock/bounded(by:now:)``).
  func replicaClock(limit: Int64, now: Int64) throws -> HybridLogicalClock {
    try storedReplicaClock().bounded(by: limit, now: now)
  }

  /// The replica's clock as stored.
  func storedReplicaClock() throws -> HybridLogicalClock {
    try metadata(forKey: ReplicaKeys.clock).flatMap(HybridLogicalClock.init(encoded:)) ?? HybridLogicalClock()
  }
}

extension StoreWriter {
  func setSyncInteger(_ value: Int64, _ key: String) throws { try setMetadata(String(value), forKey: key) }

  /// The replica's id, created on first use from `newID`.
  func ensureReplicaID(_ newID: () -> String) throws -> String {
    if let id = try metadata(forKey: ReplicaKeys.replicaID) { return id }
    let id = newID()
    try setMetadata(id, forKey: ReplicaKeys.replicaID)
    return id
  }
}

/// The text a record's state is kept in: the compact binary form of a one-change batch
/// (`ChangeBatchCoding`), in base64.
enum StateCoding {
  static func encode(_ state: RecordState) -> String {
    ChangeBatchCoding.encode(ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [state.wholeChange])).base64EncodedString()
  }

  static func decode(_ text: String) -> RecordState? {
    guard let data = Data(base64Encoded: text), let change = try? ChangeBatchCoding.decode(data).changes.first else { return nil }
    return RecordState(change)
  }
}
