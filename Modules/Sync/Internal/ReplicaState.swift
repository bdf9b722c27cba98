import Foundation
import Model
import Persistence

/// A replica's sync bookkeeping, kept in its store's metadata table so it survives
/// restarts and commits or rolls back with the data it describes.
enum ReplicaKeys {
  static let replicaID = "sync.replica"
  static let clock = "sync.clock"
  /// Change-log sequence up to which local changes carry stamps.
  static let stamped = "sync.stamped"
  /// Change-log sequence up to which local changes were pushed.
  static let pushed = "sync.pushed"
  /// Cloud sequence up to which batches were pulled and applied.
  static let token = "sync.token"
  /// The identifier of the cloud the token and the pushed position refer to.
  static let cloud = "sync.cloud"

  static let redirectPrefix = "sync.redirect/"
  static let danglingPrefix = "sync.dangling/"
  static let repairedPrefix = "sync.repaired/"
  static let pendingFoldPrefix = "sync.folds/"

  static func stamps(_ kind: EntityKind, _ id: UUID) -> String { key("sync.stamps/", kind, id) }
  static func redirect(_ kind: EntityKind, _ id: UUID) -> String { key(redirectPrefix, kind, id) }
  /// References this replica cleared (or whose records it removed) because the record
  /// they named was deleted with no known redirect; kept so that a redirect learned
  /// later restores them, whatever order the delete and the merge arrived in.
  /// The values a repair replaced in a record's fields, by field: what the user wrote,
  /// which is what this replica pushes for that field (other replicas repair it the same way).
  static func repaired(_ kind: EntityKind, _ id: UUID) -> String { key(repairedPrefix, kind, id) }
  static func dangling(_ kind: EntityKind, _ id: UUID) -> String { key(danglingPrefix, kind, id) }
  /// Records merged into this one before it arrived here, whose values are folded into it
  /// when it does (lowercase ids, one per line).
  static func pendingFolds(_ kind: EntityKind, _ id: UUID) -> String { key(pendingFoldPrefix, kind, id) }

  /// The records that have a key of one family (`prefix` + kind + "/" + id), by one
  /// range read of the metadata keys.
  static func records(withPrefix prefix: String, in reader: any StoreReader) throws -> Set<Merger.RecordKey> {
    var records = Set<Merger.RecordKey>()
    for key in try reader.metadataKeys(withPrefix: prefix) {
      let rest = key.utf8.dropFirst(prefix.utf8.count)
      guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
        let kind = EntityKind(rawValue: String(decoding: rest[..<slash], as: UTF8.self)),
        let id = UUID(hyphenatedHex: String(decoding: rest[rest.index(after: slash)...], as: UTF8.self))
      else { continue }
      records.insert(Merger.RecordKey(kind: kind, id: id))
    }
    return records
  }

  /// `prefix` + kind + "/" + lowercase id, built without interpolation (sync builds
  /// several keys for every record it touches).
  private static func key(_ prefix: String, _ kind: EntityKind, _ id: UUID) -> String {
    let kindName = kind.rawValue
    return String(unsafeUninitializedCapacity: prefix.utf8.count + kindName.utf8.count + 37) { buffer in
      var end = buffer.initialize(fromContentsOf: prefix.utf8)
      end += UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: kindName.utf8)
      buffer[end] = UInt8(ascii: "/")
      return id.writeLowercaseText(into: buffer, at: end + 1)
    }
  }
}

extension StoreReader {
  func syncInteger(_ key: String) throws -> Int64 { try metadata(forKey: key).flatMap { Int64($0) } ?? 0 }

  func replicaClock() throws -> HybridLogicalClock {
    try metadata(forKey: ReplicaKeys.clock).flatMap(HybridLogicalClock.init(encoded:)) ?? HybridLogicalClock()
  }

  /// The stamps of a record's fields (pseudo-fields included).
  func stamps(_ kind: EntityKind, _ id: UUID) throws -> [String: Stamp] {
    guard let text = try metadata(forKey: ReplicaKeys.stamps(kind, id)) else { return [:] }
    return StampCoding.decode(text)
  }

  func redirect(_ kind: EntityKind, _ id: UUID) throws -> UUID? {
    try metadata(forKey: ReplicaKeys.redirect(kind, id)).flatMap { UUID(hyphenatedHex: $0) ?? UUID(uuidString: $0) }
  }

  /// Follows redirects from `id` to the end of the chain.
  func redirectEnd(_ kind: EntityKind, _ id: UUID) throws -> UUID {
    try ReplicaKeys.followRedirects(from: id) { try redirect(kind, $0) }
  }
}

extension ReplicaKeys {
  /// The end of the redirect chain from `id`, each hop read by `next` (ids only ever
  /// redirect to smaller ids, so chains end; the hop limit guards against damaged data).
  static func followRedirects(from id: UUID, _ next: (UUID) throws -> UUID?) rethrows -> UUID {
    var current = id
    for _ in 0..<64 {
      guard let keeper = try next(current), keeper != current else { return current }
      current = keeper
    }
    return current
  }
}

/// The records of a page of record keys and their stamps, read with one query per kind
/// and one for all the stamps instead of two reads per record.
struct PageRead {
  /// The records themselves, when read whole.
  private(set) var records: [Merger.RecordKey: Record] = [:]
  /// The tombstones among the keys, in either mode.
  private(set) var tombstones: Set<Merger.RecordKey> = []
  private(set) var stamps: [Merger.RecordKey: [String: Stamp]] = [:]

  /// - Parameter wholeRecords: read the records' values, or (stamping needs no more)
  ///   only which of them are tombstones.
  init(_ keys: Set<Merger.RecordKey>, in reader: any StoreReader, wholeRecords: Bool = true) throws {
    var byKind: [EntityKind: [UUID]] = [:]
    for key in keys { byKind[key.kind, default: []].append(key.id) }
    for (kind, ids) in byKind {
      if wholeRecords {
        for record in try reader.records(kind, ids: ids) {
          let key = Merger.RecordKey(kind: kind, id: record.id)
          records[key] = record
          if !record.meta.isLive { tombstones.insert(key) }
        }
      } else {
        for id in try reader.tombstoned(kind, among: ids) { tombstones.insert(Merger.RecordKey(kind: kind, id: id)) }
      }
    }
    let stampKeys = keys.map { (ReplicaKeys.stamps($0.kind, $0.id), $0) }
    let values = try reader.metadata(forKeys: stampKeys.map(\.0))
    for (text, key) in stampKeys {
      if let value = values[text] { stamps[key] = StampCoding.decode(value) }
    }
  }
}

/// The records with a redirect or repaired values, for a read transaction that would
/// otherwise look up both for every record it exports.
struct SparseRecords {
  let withRedirect: Set<Merger.RecordKey>
  let withRepaired: Set<Merger.RecordKey>

  init(_ reader: any StoreReader) throws {
    withRedirect = try ReplicaKeys.records(withPrefix: ReplicaKeys.redirectPrefix, in: reader)
    withRepaired = try ReplicaKeys.records(withPrefix: ReplicaKeys.repairedPrefix, in: reader)
  }
}

/// A relationship a repair cleared: the record and field that named a deleted record.
struct DanglingReference: Codable, Hashable {
  let kind: EntityKind
  let id: UUID
  let field: String
  /// Whether the repair deleted the referring record (a required relationship).
  let removedRecord: Bool
  /// The field's stamp when the repair cleared it: a later write supersedes the repair.
  let stamp: Stamp?
}

/// A field value as written, before a repair cleared a reference in it.
struct RepairedValue: Codable, Hashable {
  /// The value to export for a field: what was written, even if a repair cleared a
  /// reference in it since (`repaired`: the record's repaired values).
  static func written(_ record: Record, _ field: String, stamp: Stamp?, repaired: [String: RepairedValue]) -> FieldValue {
    guard let entry = repaired[field], entry.stamp == stamp else { return record[field] }
    return entry.value
  }

  let value: FieldValue
  /// The field's stamp when it was repaired; a later write makes the entry obsolete.
  let stamp: Stamp?
}

extension StoreReader {
  func repairedValues(_ kind: EntityKind, _ id: UUID) throws -> [String: RepairedValue] {
    guard let text = try metadata(forKey: ReplicaKeys.repaired(kind, id)) else { return [:] }
    return (try? JSONDecoder().decode([String: RepairedValue].self, from: Data(text.utf8))) ?? [:]
  }

  func danglingReferences(to kind: EntityKind, _ id: UUID) throws -> [DanglingReference] {
    guard let text = try metadata(forKey: ReplicaKeys.dangling(kind, id)) else { return [] }
    return (try? JSONDecoder().decode([DanglingReference].self, from: Data(text.utf8))) ?? []
  }
}

extension StoreWriter {
  func setRepairedValues(_ values: [String: RepairedValue], _ kind: EntityKind, _ id: UUID) throws {
    if values.isEmpty {
      try setMetadata(nil, forKey: ReplicaKeys.repaired(kind, id))
    } else {
      let data = try JSONEncoder.sorted.encode(values)
      try setMetadata(String(decoding: data, as: UTF8.self), forKey: ReplicaKeys.repaired(kind, id))
    }
  }

  func setDanglingReferences(_ references: [DanglingReference], to kind: EntityKind, _ id: UUID) throws {
    if references.isEmpty {
      try setMetadata(nil, forKey: ReplicaKeys.dangling(kind, id))
    } else {
      let data = try JSONEncoder.sorted.encode(references)
      try setMetadata(String(decoding: data, as: UTF8.self), forKey: ReplicaKeys.dangling(kind, id))
    }
  }

  func setSyncInteger(_ value: Int64, _ key: String) throws { try setMetadata(String(value), forKey: key) }

  func setStamps(_ stamps: [String: Stamp], _ kind: EntityKind, _ id: UUID) throws {
    try setMetadata(StampCoding.encode(stamps), forKey: ReplicaKeys.stamps(kind, id))
  }

  func setRedirect(_ keeper: UUID, _ kind: EntityKind, _ id: UUID) throws {
    try setMetadata(keeper.lowercaseText, forKey: ReplicaKeys.redirect(kind, id))
  }

  /// The replica's id, created on first use.
  func ensureReplicaID() throws -> String {
    if let id = try metadata(forKey: ReplicaKeys.replicaID) { return id }
    let id = UUID().uuidString.lowercased()
    try setMetadata(id, forKey: ReplicaKeys.replicaID)
    return id
  }
}

extension JSONEncoder {
  static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }
}
