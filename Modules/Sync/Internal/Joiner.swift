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

  /// Joins `change` into its record's state, its texts first put into NFC
  /// (``RecordChange/canonical``): every device holds the same bytes whatever form the
  /// sender wrote.
  mutating func apply(_ change: RecordChange) throws {
    imports += 1
    let change = change.canonical
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

extension RecordChange {
  /// The change with every text register and its owner in NFC (``Model/ValueRules/canonical(_:)``),
  /// a pure function of the change: a device of any version may send a text in another
  /// form ("e" + U+0300 for "è"), and each device that receives it joins the same bytes.
  /// A change that is canonical already (any ASCII change) is returned as it is.
  var canonical: RecordChange {
    var fields = self.fields
    var changed = false
    for (name, register) in self.fields {
      guard let value = register.value.canonicalized else { continue }
      fields[name] = StampedValue(value: value, stamp: register.stamp)
      changed = true
    }
    let owner = ValueRules.canonical(ownerID)
    guard changed || !owner.utf8.elementsEqual(ownerID.utf8) else { return self }
    return RecordChange(
      kind: kind, id: id, createdAt: createdAt, updatedAt: updatedAt, ownerID: owner, sharingScope: sharingScope, fields: fields)
  }
}
