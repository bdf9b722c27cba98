import Foundation
import Model
import Persistence

/// A device's replicated states as they were at a time T, from its states now and the
/// history it keeps (Docs/SYNC.md, "History"): each state's registers, merge edges included,
/// with every history entry made at or after T undone, newest first.
///
/// An entry's time is when the device wrote the state (a pull's join), except for a
/// register this device wrote itself, whose time is its stamp's moved back to the store's
/// clock (stamps are on the time authority's clock, `offset` ms ahead): the device showed
/// its own write from when it was made, before the sync that stamped it. A record whose existence
/// register did not exist at T was not held then and has no state at T. A record is
/// unknown when its older entries were dropped and every entry kept is at or after T, or
/// when this device wrote one of its registers at or after T with no entry of it (the
/// state was first written by the sync that stamped the write).
struct StatesAtTime {
  /// The states at T, by record.
  private(set) var states: [RecordKey: RecordState] = [:]
  /// Records whose state at T the history does not tell.
  private(set) var unknown: Set<RecordKey> = []

  /// Walks every state of `now` back to `time`, reading the history from `reader`.
  init(_ now: [RecordKey: RecordState], before time: Date, replica: String, offset: Int64, reader: any StoreReader) throws {
    var entries: [RecordKey: [HistoryEntry]] = [:]
    var after: Int64 = 0
    while true {
      let page = try reader.syncHistory(after: after, limit: 5_000)
      guard let last = page.last else { break }
      for row in page {
        guard let entry = HistoryEntry(row) else { continue }
        entries[RecordKey(kind: row.kind, id: row.id), default: []].append(entry)
      }
      after = last.sequence
    }
    for (key, state) in now {
      switch try Self.walk(state, back: entries[key] ?? [], to: time, replica: replica, offset: offset, reader: reader) {
      case .state(let past): states[key] = past
      case .absent: break
      case .unknown:
        unknown.insert(key)
        states[key] = state
      }
    }
  }

  private enum Walked {
    case state(RecordState)
    case absent
    case unknown
  }

  private static func walk(
    _ state: RecordState, back entries: [HistoryEntry], to time: Date, replica: String, offset: Int64, reader: any StoreReader
  ) throws -> Walked {
    let own = { (value: StampedValue) -> Date? in
      guard value.stamp.replica == replica else { return nil }
      return value.stamp.wallTime?.addingTimeInterval(-Double(offset) / 1000)
    }
    let key = RecordKey(kind: state.kind, id: state.id)
    var registers: [String: StampedValue] = [:]
    for name in state.fieldNames { registers[name] = state[name] }
    var settled = Set<String>()
    var reachedBeforeT = false
    for entry in entries.reversed() {
      for (name, replacement) in entry.registers where !settled.contains(name) {
        let written = own(replacement.new) ?? entry.time
        if written >= time {
          registers[name] = replacement.old
        } else {
          settled.insert(name)
          reachedBeforeT = true
        }
      }
    }
    if !reachedBeforeT, try reader.historyIsPartial(key) { return .unknown }
    guard registers[RecordState.existsField] != nil else { return .absent }
    let replaced = Set(entries.flatMap(\.registers.keys))
    for (name, value) in registers where !replaced.contains(name) {
      if let written = own(value), written >= time { return .unknown }
    }
    return .state(
      RecordState(
        kind: state.kind, id: state.id, createdAt: state.createdAt, updatedAt: state.updatedAt, ownerID: state.ownerID,
        sharingScope: state.sharingScope, registers: registers))
  }
}
