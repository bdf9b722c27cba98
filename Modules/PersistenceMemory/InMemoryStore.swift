public import Foundation
import Model
public import Persistence
import Synchronization

/// A complete store held in memory: a real backend with the same semantics as the
/// SQLite one (the conformance suite runs against both), for tests, scratch sessions
/// and `--memory`.
///
/// Transactions are serialized by a lock. A write transaction applies its changes as it
/// goes and keeps an undo log; when its body throws, the log is replayed backwards so the
/// store is exactly as it was.
public final class InMemoryStore: Store {
  /// Always "memory".
  public let location = "memory"
  /// The clock that dates the change-log entries of each transaction.
  public let clock: StoreClock
  private let state = Mutex(MemoryState())
  /// The subscribers of ``subscribe(to:onCommit:)``, told after each commit.
  private let commits = CommitBroadcaster()

  /// An empty store.
  /// - Parameter clock: dates change-log entries; the system clock by default.
  public init(clock: @escaping StoreClock = { Date() }) {
    self.clock = clock
  }

  /// Runs `body` in a read transaction that sees one consistent state.
  public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
    try state.withLock { state in
      let transaction = MemoryTransaction(state: state, origin: .local, now: clock())
      return try body(transaction)
    }
  }

  /// Runs `body` in a write transaction; when it throws, every change it made is undone.
  public func write<T>(origin: ChangeOrigin, _ body: (any StoreWriter) throws -> T) throws -> T {
    let (result, touched) = try state.withLock { state in
      // Move the state into the transaction so its dictionaries stay uniquely referenced
      // and are mutated in place instead of copied.
      var taken = MemoryState()
      swap(&taken, &state)
      let transaction = MemoryTransaction(state: taken, origin: origin, now: clock())
      do {
        let result = try body(transaction)
        state = transaction.state
        return (result, transaction.touched)
      } catch {
        transaction.rollback()
        state = transaction.state
        throw error
      }
    }
    // After the lock: subscribers read the store again.
    commits.notify(touched)
    return result
  }

  /// Calls `onCommit` after each committed transaction that wrote a kind of `region`,
  /// until the subscription is cancelled.
  public func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    commits.subscribe(to: region, onCommit: onCommit)
  }
}

/// The backend entry for `StoreFactory`: location `memory`.
public struct MemoryBackend: StoreBackend {
  /// The memory backend entry.
  public init() {}
  /// "memory".
  public var scheme: String { "memory" }
  /// A one-line description for a list of backends.
  public var summary: String { "memory — a fresh in-memory store, gone when the program exits" }
  /// A new, empty `InMemoryStore`; the path is ignored.
  public func open(path: String, clock: @escaping StoreClock) throws -> any Store { InMemoryStore(clock: clock) }
}

struct RecordAddress: Hashable {
  let kind: EntityKind
  let id: UUID
}

struct KeyAddress: Hashable {
  let kind: EntityKind
  let key: String
}

/// One element of one text-list field of one kind (an ingredient alias): what a
/// `.hasElement` filter looks up.
struct ElementAddress: Hashable {
  let kind: EntityKind
  let field: String
  let element: String
}

struct MemoryState: Sendable {
  var records: [RecordAddress: Record] = [:]
  /// Ids of records (live and deleted) per kind and semantic key.
  var keyIndex: [KeyAddress: Set<UUID>] = [:]
  var idsByKind: [EntityKind: Set<UUID>] = [:]
  /// Ids of records (live and deleted) per element of each text-list field, so a
  /// `.hasElement` filter reads the records that hold the element, not the whole kind.
  var elementIndex: [ElementAddress: Set<UUID>] = [:]
  var changes: [Change] = []
  var metadata: [String: String] = [:]
  /// Sync's state of each record that has one, with the semantic key it holds.
  var syncStates: [RecordAddress: SyncStateEntry] = [:]
  /// Ids of the records whose sync state holds a semantic key, per kind and key.
  var syncStateKeys: [KeyAddress: Set<UUID>] = [:]
  /// Sync's history of record states.
  var history = MemoryHistory()
}

extension MemoryState {
  /// Adds the record's text-list elements to ``elementIndex``, or removes them.
  mutating func indexElements(of record: Record, adding: Bool) {
    for (position, field) in record.kind.schema.fields.enumerated() {
      guard case .textList(let list) = record[position: position] else { continue }
      for element in list {
        let address = ElementAddress(kind: record.kind, field: field.name, element: element)
        if adding {
          elementIndex[address, default: []].insert(record.id)
        } else {
          elementIndex[address]?.remove(record.id)
          if elementIndex[address]?.isEmpty == true { elementIndex[address] = nil }
        }
      }
    }
  }
}

struct SyncStateEntry: Sendable {
  let key: String?
  let text: String
}

/// Sync's record history (``Persistence/SyncHistoryRow``): every entry by sequence, each
/// record's sequences in order, and the next sequence (never reused).
struct MemoryHistory: Sendable {
  var rows: [Int64: SyncHistoryRow] = [:]
  var byRecord: [RecordAddress: [Int64]] = [:]
  var next: Int64 = 1
  /// Every sequence below it was dropped.
  var low: Int64 = 1

  /// Adds a row under the next sequence.
  mutating func append(_ kind: EntityKind, id: UUID, text: String) -> SyncHistoryRow {
    let row = SyncHistoryRow(sequence: next, kind: kind, id: id, text: text)
    rows[next] = row
    byRecord[RecordAddress(kind: kind, id: id), default: []].append(next)
    next += 1
    return row
  }

  /// Removes the rows of these sequences; returns them.
  mutating func remove(_ sequences: some Sequence<Int64>) -> [SyncHistoryRow] {
    var removed: [SyncHistoryRow] = []
    for sequence in sequences {
      guard let row = rows.removeValue(forKey: sequence) else { continue }
      let address = RecordAddress(kind: row.kind, id: row.id)
      byRecord[address]?.removeAll { $0 == sequence }
      if byRecord[address]?.isEmpty == true { byRecord[address] = nil }
      removed.append(row)
    }
    return removed
  }

  /// Puts removed rows back.
  mutating func restore(_ removed: [SyncHistoryRow]) {
    for row in removed {
      rows[row.sequence] = row
      let address = RecordAddress(kind: row.kind, id: row.id)
      byRecord[address, default: []].append(row.sequence)
      byRecord[address]?.sort()
    }
  }
}
