public import Persistence

/// How much of each record's history a device keeps: at most ``perRecord`` entries per
/// record and ``total`` entries in all; the oldest go first. One entry is one change of a
/// record's state (a sync's join of a pulled change, a stamping of this device's write),
/// with every register it replaced.
///
/// The bounds are a setting of the device's store (`settings history` in the command
/// language), read at each write of states.
///
/// ```swift
/// try HistoryBounds(perRecord: 20, total: 10_000).save(in: store)
/// ```
public struct HistoryBounds: Sendable, Hashable, CustomStringConvertible {
  /// Entries kept per record.
  public let perRecord: Int
  /// Entries kept in all.
  public let total: Int

  /// The bounds a store keeps until it is told others.
  public static let standard = HistoryBounds(uncheckedPerRecord: 50, total: 100_000)
  /// The values ``perRecord`` may take.
  public static let perRecordRange = 1...1_000
  /// The values ``total`` may take.
  public static let totalRange = 1...10_000_000

  static let metadataKey = "history.bounds"

  /// Bounds within ``perRecordRange`` and ``totalRange``.
  /// - Throws: ``HistoryError/outOfRange(_:)`` naming the bound out of range.
  public init(perRecord: Int, total: Int) throws(HistoryError) {
    guard Self.perRecordRange.contains(perRecord) else {
      throw .outOfRange(
        "entries per record must lie in \(Self.perRecordRange.lowerBound)…\(Self.perRecordRange.upperBound), not \(perRecord)")
    }
    guard Self.totalRange.contains(total) else {
      throw .outOfRange("entries in all must lie in \(Self.totalRange.lowerBound)…\(Self.totalRange.upperBound), not \(total)")
    }
    self.init(uncheckedPerRecord: perRecord, total: total)
  }

  private init(uncheckedPerRecord perRecord: Int, total: Int) {
    self.perRecord = perRecord
    self.total = total
  }

  /// The bounds in words: "50 entries per record, 100000 in all".
  public var description: String { "\(perRecord) entries per record, \(total) in all" }

  /// The bounds `store` keeps (``standard`` unless set).
  public static func current(in store: any Store) throws -> HistoryBounds {
    try store.read { try read(from: $0) }
  }

  /// Makes these the bounds `store` keeps; the history is held to them from its next write.
  public func save(in store: any Store) throws {
    try store.write(origin: .local) { writer in try writer.setMetadata("\(perRecord)/\(total)", forKey: Self.metadataKey) }
  }

  /// The stored bounds; a value that does not read as bounds (written by hand) is ``standard``.
  static func read(from reader: any StoreReader) throws -> HistoryBounds {
    guard let text = try reader.metadata(forKey: metadataKey) else { return .standard }
    let parts = text.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, let bounds = try? HistoryBounds(perRecord: parts[0], total: parts[1]) else { return .standard }
    return bounds
  }
}

/// Why a history request was refused.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A bound out of its range.
  case outOfRange(String)

  /// What was wrong, for the user.
  public var description: String {
    switch self {
    case .outOfRange(let reason): reason
    }
  }
}
