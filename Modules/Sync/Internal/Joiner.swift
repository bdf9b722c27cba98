import Foundation
import Model
import Persistence

/// Joins received record changes into the replica's state (`RecordState.join`): no view,
/// no rows, only registers and edges. The view follows for the records it touched.
struct Joiner {
  let states: StateStore
  /// This replica: a conflict is another device's write to a field this one wrote.
  let replica: String
  var clock: HybridLogicalClock
  /// The latest stamp time the clock follows (physical time plus the allowed skew).
  let limit: Int64
  /// The records whose state the join changed, each once.
  private(set) var touched: [RecordKey] = []
  private(set) var imports = 0
  private(set) var conflicts = 0
  /// Merge edges learned.
  private(set) var merges = 0
  private(set) var notes: [String] = []

  init(states: StateStore, replica: String, clock: HybridLogicalClock, limit: Int64) {
    self.states = states
    self.replica = replica
    self.clock = clock
    self.limit = limit
  }

  mutating func apply(_ change: RecordChange) throws {
    imports += 1
    let incoming = RecordState(change)
    for value in change.fields.values { clock.receive(value.stamp, limit: limit) }
    let key = RecordKey(kind: change.kind, id: change.id)
    let incomingKeepers = incoming.keepers
    if let stored = try states.state(key) {
      var state = stored
      countConflicts(incoming, against: state)
      let knownKeepers = Set(state.keepers)
      merges += incomingKeepers.filter { !knownKeepers.contains($0) }.count
      guard state.join(incoming) else { return }
      if try states.set(state) { touched.append(key) }
    } else {
      // The join of an empty state with the arrival is the arrival: nothing to compare.
      merges += incomingKeepers.count
      if try states.set(incoming) { touched.append(key) }
    }
    for keeper in incomingKeepers { try states.noteEdge(change.kind, loser: change.id, keeper: keeper) }
  }

  /// Another device wrote a different value to a field this device wrote: the higher
  /// stamp's value is kept (on every device).
  private mutating func countConflicts(_ incoming: RecordState, against state: RecordState) {
    for field in incoming.kind.schema.fields {
      guard let theirs = incoming[field.name], let ours = state[field.name], ours.stamp.replica == replica,
        theirs.stamp.replica != replica, theirs.value != ours.value
      else { continue }
      conflicts += 1
      let kept = theirs.stamp > ours.stamp ? "remote" : "local"
      notes.append("\(incoming.kind.rawValue) \(incoming.id.lowercaseText).\(field.name): \(kept) value kept")
    }
  }
}
