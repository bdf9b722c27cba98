import Synchronization

/// The states one sync has written, by record, so that reading them again later in the
/// same sync (the push reads back every state the stamping before it wrote) needs neither
/// the store nor decoding.
///
/// Every transaction that writes states also counts them in the store
/// (``ReplicaKeys/stateWrites``). What this holds is valid exactly while the store's count
/// is the one its last committed transaction wrote: a state written since by anyone (another
/// engine on the same store) moves the count on, and a transaction rolled back never becomes
/// part of what it holds (``committing(_:)``). It holds at most ``limit`` states and is
/// emptied when the sync ends; a state it does not hold is read from the store as usual.
final class DecodedStates: Sendable {
  private struct Contents {
    /// The states written by committed transactions, valid while the store's count is
    /// ``generation``.
    var states: [RecordKey: RecordState] = [:]
    var generation: Int64?
    /// What the running transaction wrote: its states, and the count before and after it.
    var pending: [RecordKey: RecordState] = [:]
    var pendingCounts: (before: Int64, after: Int64)?
    /// Whether the running transaction wrote more states than ``limit``: those past it are
    /// not noted, so nothing kept from before it can be trusted.
    var overflowed = false

    mutating func clearPending() {
      pending = [:]
      pendingCounts = nil
      overflowed = false
    }
  }

  private let contents = Mutex(Contents())
  /// About 20–40 MB of states at most.
  static let limit = 20_000

  /// Notes that the running transaction, which moves the store's count from `before` to
  /// `after`, writes `state`.
  func note(_ key: RecordKey, state: RecordState, counts: (before: Int64, after: Int64)) {
    contents.withLock { contents in
      contents.pendingCounts = counts
      guard contents.pending.count < Self.limit || contents.pending[key] != nil else {
        contents.overflowed = true
        return
      }
      contents.pending[key] = state
    }
  }

  /// Runs one write transaction (`body`); what it noted is kept when it returns, and
  /// forgotten when it throws.
  func committing<T>(_ body: () throws -> T) rethrows -> T {
    contents.withLock { $0.clearPending() }
    do {
      let result = try body()
      contents.withLock { contents in
        defer { contents.clearPending() }
        guard let counts = contents.pendingCounts else { return }
        // Written by someone else in between, or by this transaction past what it noted:
        // what was kept before may be stale.
        if contents.generation != counts.before || contents.overflowed { contents.states = [:] }
        contents.generation = counts.after
        guard !contents.states.isEmpty else {
          // Nothing kept to merge with (the first transaction, or one that wrote more than
          // the limit): what it noted, at most the limit, is taken as it is.
          swap(&contents.states, &contents.pending)
          return
        }
        // An older copy of a state is replaced; a state past the limit has none to replace.
        for (key, state) in contents.pending where contents.states.count < Self.limit || contents.states[key] != nil {
          contents.states[key] = state
        }
      }
      return result
    } catch {
      contents.withLock { $0.clearPending() }
      throw error
    }
  }

  /// The states held, when the store's count of state writes is `count` (nothing has
  /// written a state since they were written), else nil.
  func states(whenCountIs count: Int64) -> [RecordKey: RecordState]? {
    contents.withLock { contents in
      contents.generation == count ? contents.states : nil
    }
  }

  func removeAll() { contents.withLock { $0 = Contents() } }
}
