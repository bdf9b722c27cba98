public import Foundation
public import Model

/// A whole kitchen as one versioned JSON document (`export kitchen`, `import kitchen`;
/// Docs/IMPORT.md, "Kitchen archive").
///
/// The document names its format and version, the store's schema version and when it was
/// written, then holds one array per entity kind (`categories`, `ingredientTemplates`,
/// `recipes`, … — every kind of `EntityKind`), each of records sorted by semantic key:
///
/// ```json
/// {"format": "forager-kitchen", "formatVersion": 1, "schemaVersion": 5,
///  "exportedAt": "2026-11-27T08:00:00.000Z",
///  "categories": [{"id": "…", "key": "produce", "fields": {"displayName": "Produce", "sortOrder": 0}}],
///  …}
/// ```
public struct KitchenArchiveDocument: Sendable, Hashable, Codable {
  /// The value of `format`: what the file is.
  public static let formatName = "forager-kitchen"
  /// The newest format version this build writes and reads.
  public static let currentFormatVersion = 1

  /// What the file is: always `formatName`.
  public var format: String
  /// The format version it was written in.
  public var formatVersion: Int
  /// The schema version of the store it was exported from.
  public var schemaVersion: Int
  /// When it was written: ISO 8601, UTC, milliseconds.
  public var exportedAt: String
  /// The records of each kind, sorted by semantic key then id. Every kind has its array
  /// (empty when the kitchen holds none).
  public var records: [EntityKind: [KitchenArchiveRecord]]

  /// A document of the current format holding `records`.
  public init(schemaVersion: Int, exportedAt: Date, records: [EntityKind: [KitchenArchiveRecord]]) {
    format = Self.formatName
    formatVersion = Self.currentFormatVersion
    self.schemaVersion = schemaVersion
    self.exportedAt = ArchiveTimestamp.text(exportedAt)
    self.records = records
  }

  /// How many records it holds, over every kind.
  public var recordCount: Int { records.values.reduce(0) { $0 + $1.count } }

  /// The name of a kind's array: its raw value in the plural (`categories`, `tags`).
  public static func arrayName(_ kind: EntityKind) -> String {
    let name = kind.rawValue
    return name.hasSuffix("y") ? name.dropLast() + "ies" : name + "s"
  }

  private struct Key: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  private static let headerKeys: Set<String> = ["format", "formatVersion", "schemaVersion", "exportedAt"]

  /// Reads the header first, so a file of another format or a newer version is refused
  /// as such before any record is read; then each kind's array, refused when it holds
  /// more records than the limits in the decoder's user info allow.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let declared = try? container.decode(String.self, forKey: Key("format"))
    guard declared == Self.formatName else { throw KitchenArchiveError.unknownFormat(declared) }
    let version = try container.decode(Int.self, forKey: Key("formatVersion"))
    guard version <= Self.currentFormatVersion else { throw KitchenArchiveError.newerFormat(version) }
    guard version >= 1 else { throw KitchenArchiveError.unknownFormatVersion(version) }
    format = Self.formatName
    formatVersion = version
    schemaVersion = try container.decode(Int.self, forKey: Key("schemaVersion"))
    exportedAt = try container.decode(String.self, forKey: Key("exportedAt"))
    let limits = decoder.userInfo[KitchenArchiveLimits.userInfoKey] as? KitchenArchiveLimits ?? .standard
    let kinds = Dictionary(uniqueKeysWithValues: EntityKind.allCases.map { (Self.arrayName($0), $0) })
    if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { kinds[$0] == nil && !Self.headerKeys.contains($0) }) {
      throw KitchenArchiveError.unknownArray(unknown)
    }
    var records: [EntityKind: [KitchenArchiveRecord]] = [:]
    var total = 0
    for kind in EntityKind.allCases {
      let key = Key(Self.arrayName(kind))
      guard container.contains(key) else {
        records[kind] = []
        continue
      }
      var array = try container.nestedUnkeyedContainer(forKey: key)
      let count = array.count ?? 0
      total += count
      guard count <= limits.maximumRecordsPerKind else {
        throw KitchenArchiveError.tooManyRecords(kind, count: count, limit: limits.maximumRecordsPerKind)
      }
      guard total <= limits.maximumRecords else {
        throw KitchenArchiveError.tooManyRecords(nil, count: total, limit: limits.maximumRecords)
      }
      var list: [KitchenArchiveRecord] = []
      list.reserveCapacity(count)
      while !array.isAtEnd { list.append(try array.decode(KitchenArchiveRecord.self)) }
      records[kind] = list
    }
    self.records = records
  }

  /// Writes the document, with an array for every kind.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(format, forKey: Key("format"))
    try container.encode(formatVersion, forKey: Key("formatVersion"))
    try container.encode(schemaVersion, forKey: Key("schemaVersion"))
    try container.encode(exportedAt, forKey: Key("exportedAt"))
    for kind in EntityKind.allCases {
      try container.encode(records[kind] ?? [], forKey: Key(Self.arrayName(kind)))
    }
  }
}

/// One record of a kitchen archive: its id, its semantic key, and its fields by the
/// schema's names. A relationship is an object `{"id": …, "key": …}` naming the record
/// it points at both ways, so an import can resolve it by id or by key; the semantic-key
/// field itself is `key`, not repeated among the fields.
public struct KitchenArchiveRecord: Sendable, Hashable, Codable {
  /// The record's id.
  public var id: UUID
  /// The semantic key (Docs/DESIGN.md §2); for kinds without one, a key built from the
  /// owner's key and the record's own name or position (Docs/IMPORT.md).
  public var key: String
  /// The record's fields by their schema names.
  public var fields: [String: ArchiveValue]

  /// A record with its id, semantic key and fields.
  public init(id: UUID, key: String, fields: [String: ArchiveValue]) {
    self.id = id
    self.key = key
    self.fields = fields
  }
}

/// What a kitchen archive may hold: files and arrays past these are refused before
/// anything is written.
public struct KitchenArchiveLimits: Sendable, Hashable {
  /// The largest file read, in bytes.
  public var maximumBytes: Int
  /// The most records of one kind.
  public var maximumRecordsPerKind: Int
  /// The most records over every kind.
  public var maximumRecords: Int

  /// Limits of your own.
  public init(maximumBytes: Int, maximumRecordsPerKind: Int, maximumRecords: Int) {
    self.maximumBytes = maximumBytes
    self.maximumRecordsPerKind = maximumRecordsPerKind
    self.maximumRecords = maximumRecords
  }

  /// 512 MB, a million records of a kind, two million in all: a kitchen ten times
  /// the bench's 100k-record one fits many times over.
  public static let standard = KitchenArchiveLimits(
    maximumBytes: 512 * 1024 * 1024, maximumRecordsPerKind: 1_000_000, maximumRecords: 2_000_000)

  static let userInfoKey: CodingUserInfoKey = {
    guard let key = CodingUserInfoKey(rawValue: "forager.kitchenArchiveLimits") else { preconditionFailure("a fixed, valid key") }
    return key
  }()
}

/// Timestamps as an archive writes them: ISO 8601 in UTC with milliseconds.
enum ArchiveTimestamp {
  /// "2026-11-27T08:00:00.123Z": the instant rounded to the millisecond.
  static func text(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let (seconds, fraction) = (milliseconds.quotientAndRemainder(dividingBy: 1000))
    let whole = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
    let text = Date(timeIntervalSince1970: Double(whole.0)).formatted(Date.ISO8601FormatStyle())
    let digits = String(whole.1)
    return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }

  /// The instant of an archive timestamp, to the millisecond; nil for another text.
  static func date(_ text: String) -> Date? {
    guard let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) else { return nil }
    return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  /// Whether two instants are the same to the millisecond an archive keeps.
  static func same(_ a: Date, _ b: Date) -> Bool {
    (a.timeIntervalSince1970 * 1000).rounded() == (b.timeIntervalSince1970 * 1000).rounded()
  }
}
