import Foundation
import Synchronization

/// A cloud held in memory, shared by the devices of one process (tests, scripted
/// multi-device sessions).
public final class InMemoryCloud: CloudStore {
  private struct State {
    var entries: [CloudEntry] = []
    var batchSequence: [String: Int64] = [:]
    var devices: [String: CloudDevice] = [:]
  }

  public let location = "memory"
  public let identifier: String
  private let state = Mutex(State())

  /// - Parameter identifier: what tells this cloud from another (``CloudStore/identifier``);
  ///   a new random one by default, a fixed one where a run must replay exactly.
  public init(identifier: String? = nil) {
    self.identifier = identifier ?? UUID().uuidString.lowercased()
  }

  public func push(_ batch: ChangeBatch) throws -> Int64 {
    state.withLock { state in
      if let existing = state.batchSequence[batch.id] { return existing }
      let sequence = Int64(state.entries.count + 1)
      state.entries.append(CloudEntry(sequence: sequence, batch: batch))
      state.batchSequence[batch.id] = sequence
      return sequence
    }
  }

  public func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    state.withLock { state in
      let start = Int(max(0, min(sequence, Int64(state.entries.count))))
      let end = start + min(max(0, limit), state.entries.count - start)
      return Array(state.entries[start..<end])
    }
  }

  public func latestSequence() throws -> Int64 { state.withLock { Int64($0.entries.count) } }

  public func register(_ device: CloudDevice) throws {
    state.withLock { $0.devices[device.replicaID] = device }
  }

  public func devices() throws -> [CloudDevice] {
    state.withLock { $0.devices.values.sorted { $0.name < $1.name } }
  }
}
