import Foundation
import Persistence

extension StoreReader {
  /// The stored states of these records, read at once; those `decoded` holds while nothing
  /// else wrote a state are taken from it.
  func states(_ keys: [RecordKey], decoded: DecodedStates? = nil) throws -> [RecordKey: RecordState] {
    var states: [RecordKey: RecordState] = [:]
    var unknown = keys
    if let decoded, let held = decoded.states(whenCountIs: try syncInteger(ReplicaKeys.stateWrites)) {
      unknown = []
      for key in keys {
        if let state = held[key] { states[key] = state } else { unknown.append(key) }
      }
    }
    guard !unknown.isEmpty else { return states }
    var found: [(key: RecordKey, text: String)] = []
    for (kind, keys) in Dictionary(grouping: unknown, by: \.kind) {
      let texts = try syncStates(kind, ids: keys.map(\.id))
      found += keys.compactMap { key in texts[key.id].map { (key: key, text: $0) } }
    }
    // Decoding is a pure function of the text: a page's states are decoded on every core.
    for (key, state) in zip(found.map(\.key), found.map(\.text).parallelMap(StateCoding.decode)) {
      if let state { states[key] = state }
    }
    return states
  }
}
