import Foundation
import Model
import Persistence

/// One change of a record's replicated state as the device's history keeps it: each
/// register whose stamp changed, with the value and stamp it held before (nil for a
/// register the state did not hold) and the value and stamp it holds after, and when the
/// state was written (the device's clock).
///
/// A state the store did not hold before (a create, a first pull) makes an entry of its
/// existence register alone (nil before): its other registers are in the state itself, with
/// their stamps, and the entry says from when the device held the record.
struct HistoryEntry: Equatable {
  let kind: EntityKind
  let id: UUID
  /// When the state was written, on the device's clock.
  let time: Date
  /// Per register name: the value before (nil: no register) and after.
  let registers: [String: Replacement]

  struct Replacement: Equatable {
    let old: StampedValue?
    let new: StampedValue
  }

  private static let oldPrefix = "-"
  private static let newPrefix = "+"

  /// The registers of `state` whose stamp differs from `stored`'s (for no stored state, the
  /// existence register), or nil when none does. A register rewritten with its stamp kept
  /// (the same value in NFC, `CanonicalTextConversion`) is not a change of value.
  init?(from stored: RecordState?, to state: RecordState, at time: Date) {
    var registers: [String: Replacement] = [:]
    if let stored {
      for name in state.fieldNames {
        guard let new = state[name] else { continue }
        let old = stored[name]
        guard old?.stamp != new.stamp else { continue }
        registers[name] = Replacement(old: old, new: new)
      }
    } else if let exists = state[RecordState.existsField] {
      registers[RecordState.existsField] = Replacement(old: nil, new: exists)
    }
    guard !registers.isEmpty else { return nil }
    self.init(kind: state.kind, id: state.id, time: time, registers: registers)
  }

  init(kind: EntityKind, id: UUID, time: Date, registers: [String: Replacement]) {
    self.kind = kind
    self.id = id
    self.time = time
    self.registers = registers
  }

  /// The entry in the compact binary form of ``ChangeBatchCoding``, in base64: a change
  /// whose fields are `+name` (after) and `-name` (before).
  var text: String {
    var fields: [String: StampedValue] = [:]
    for (name, replacement) in registers {
      fields[Self.newPrefix + name] = replacement.new
      if let old = replacement.old { fields[Self.oldPrefix + name] = old }
    }
    let change = RecordChange(
      kind: kind, id: id, createdAt: time, updatedAt: time, ownerID: "", sharingScope: .private, fields: fields)
    return ChangeBatchCoding.encode(ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [change])).base64EncodedString()
  }

  /// The entry a store's history row holds, or nil when it cannot be read.
  init?(_ row: SyncHistoryRow) {
    guard let data = Data(base64Encoded: row.text), let change = try? ChangeBatchCoding.decode(data).changes.first,
      change.kind == row.kind, change.id == row.id
    else { return nil }
    var registers: [String: Replacement] = [:]
    for (name, value) in change.fields where name.hasPrefix(Self.newPrefix) {
      let field = String(name.dropFirst())
      registers[field] = Replacement(old: change.fields[Self.oldPrefix + field], new: value)
    }
    self.init(kind: change.kind, id: change.id, time: change.updatedAt, registers: registers)
  }
}

/// Where the history marks a record whose older entries were dropped (``HistoryBounds``):
/// its value at a time before its oldest entry kept is unknown.
enum HistoryKeys {
  static let partialPrefix = "history.partial/"
  static func partial(_ key: RecordKey) -> String { partialPrefix + ReplicaKeys.path(key) }
}

extension StoreWriter {
  /// Appends the entries of the states a transaction replaced to the history, each record
  /// held to the store's ``HistoryBounds/perRecord`` entries, then the whole history to
  /// its ``HistoryBounds/total``; marks the records that lost entries (``HistoryKeys``).
  func appendHistory(_ entries: [HistoryEntry]) throws {
    guard !entries.isEmpty else { return }
    let bounds = try HistoryBounds.read(from: self)
    var partial: [RecordKey] = []
    // Encoding is a pure function of the entry, so a large transaction's entries are
    // encoded on every core before they are written one by one.
    let texts = entries.parallelMap { $0.text }
    for (entry, text) in zip(entries, texts)
    where try appendSyncHistory(entry.kind, id: entry.id, text: text, keepingPerRecord: bounds.perRecord) {
      partial.append(RecordKey(kind: entry.kind, id: entry.id))
    }
    partial += try trimSyncHistory(keeping: bounds.total).map { RecordKey(kind: $0.kind, id: $0.id) }
    for key in partial { try setMetadata("", forKey: HistoryKeys.partial(key)) }
  }
}

extension StoreReader {
  /// Whether older entries of the record's history were dropped.
  func historyIsPartial(_ key: RecordKey) throws -> Bool {
    try metadata(forKey: HistoryKeys.partial(key)) != nil
  }
}
