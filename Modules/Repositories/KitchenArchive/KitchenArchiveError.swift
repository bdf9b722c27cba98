public import Model

/// Why a kitchen archive was refused. Nothing was written when one is thrown: an import
/// checks and writes every record in one transaction.
public enum KitchenArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file is larger than ``KitchenArchiveLimits/maximumBytes``.
  case tooLarge(bytes: Int, limit: Int)
  /// The file is not JSON, or not a JSON object of the archive's shape.
  case brokenJSON(String)
  /// `format` is missing or not `forager-kitchen`.
  case unknownFormat(String?)
  /// `formatVersion` is newer than this build reads.
  case newerFormat(Int)
  /// `formatVersion` is below 1.
  case unknownFormatVersion(Int)
  /// A top-level array that names no entity kind.
  case unknownArray(String)
  /// An array (or the archive, when the kind is nil) holds more records than allowed.
  case tooManyRecords(EntityKind?, count: Int, limit: Int)
  /// A record breaks a rule: the kind, its key (or its position when it has none), the
  /// field and why.
  case invalidRecord(EntityKind, record: String, field: String, reason: String)

  /// A message naming the record, field or limit at fault.
  public var description: String {
    switch self {
    case .tooLarge(let bytes, let limit):
      "the archive is \(bytes) bytes; the limit is \(limit)"
    case .brokenJSON(let reason):
      "the archive is not valid JSON: \(reason)"
    case .unknownFormat(let format):
      format.map { "the file's format is '\($0.prefix(60))', not '\(KitchenArchiveDocument.formatName)'" }
        ?? "the file is not a kitchen archive: it has no \"format\": \"\(KitchenArchiveDocument.formatName)\""
    case .newerFormat(let version):
      "the archive has format version \(version); this build reads up to version \(KitchenArchiveDocument.currentFormatVersion) (update Forager to import it)"
    case .unknownFormatVersion(let version):
      "the archive has format version \(version), which no Forager wrote"
    case .unknownArray(let name):
      "the archive holds an array '\(name.prefix(60))' that names no kind of record"
    case .tooManyRecords(let kind, let count, let limit):
      kind.map { "the archive holds \(count) \(KitchenArchiveDocument.arrayName($0)); the limit is \(limit)" }
        ?? "the archive holds \(count) records; the limit is \(limit)"
    case .invalidRecord(let kind, let record, let field, let reason):
      "\(KitchenArchiveDocument.arrayName(kind)): \(record): \(field) \(reason)"
    }
  }
}
