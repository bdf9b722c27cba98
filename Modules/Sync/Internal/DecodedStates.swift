import Synchronization

/// The states one sync has written, by record, each with the text it is stored as: a state
/// read again later in the same sync (the push reads back every state the stamping before
/// it wrote) is taken from here when the stored text is still the same, instead of being
/// decoded again.
///
/// Keyed by content, so it is never wrong: a state written since by anyone, or a write
/// rolled back, leaves a different text in the store and is decoded as usual. It holds at
/// most ``limit`` states and is emptied when the sync ends.
final class DecodedStates: Sendable {
  private let states = Mutex<[RecordKey: (text: String, state: RecordState)]>([:])
  /// About 20–40 MB of states at most.
  static let limit = 20_000

  /// Notes that `state` is stored as `text`.
  func note(_ key: RecordKey, text: String, state: RecordState) {
    states.withLock { states in
      guard states.count < Self.limit || states[key] != nil else { return }
      states[key] = (text, state)
    }
  }

  /// The state stored as `text`, when this sync has seen it.
  func state(_ key: RecordKey, text: String) -> RecordState? {
    states.withLock { states in
      guard let entry = states[key], entry.text == text else { return nil }
      return entry.state
    }
  }

  func removeAll() { states.withLock { $0 = [:] } }
}
