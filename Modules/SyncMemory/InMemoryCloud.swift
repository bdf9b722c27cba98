public import Foundation
public import Sync
import Synchronization

/// A cloud held in memory, shared by the devices of one process (tests, scripted
/// multi-device sessions). Its live channel announces each new batch as it is pushed.
public final class InMemoryCloud: LiveCloud {
  struct State {
    /// The entries after ``compactedThrough``, in order.
    var entries: [CloudEntry] = []
    /// Each batch id's sequence and replica, dropped ones included (a retry is still known).
    var batchSequence: [String: (sequence: Int64, replica: String)] = [:]
    /// The log's floor: entries up to it were compacted away (``InMemoryCloud/compact(through:)``).
    var compactedThrough: Int64 = 0
    var devices: [String: CloudDevice] = [:]
    var channels: [ObjectIdentifier: MemoryLiveChannel] = [:]
  }

  /// Always "memory".
  public let location = "memory"
  /// The log's identifier, random unless given.
  public let identifier: String
  let state = Mutex(State())
  /// The snapshot fold and the pages of the newest snapshot (``takeSnapshot(rules:changesPerPage:)``).
  let snapshots = Mutex((fold: SnapshotFold(), pages: [ChangeBatch]()))
  private let authority: (@Sendable () -> Date)?

  /// An empty cloud.
  /// - Parameters:
  ///   - identifier: what tells this cloud from another (`CloudStore.identifier`); a new
  ///     random one by default, a fixed one where a run must replay exactly.
  ///   - authority: the clock this cloud answers ``authorityTime()`` with, as a server
  ///     would; none by default, leaving each device's clock the authority.
  public init(identifier: String? = nil, authority: (@Sendable () -> Date)? = nil) {
    self.identifier = identifier ?? UUID().uuidString.lowercased()
    self.authority = authority
  }

  /// The time the injected authority gives, or nil without one.
  public func authorityTime() throws -> Date? { authority?() }

  /// Appends `batch`, or returns the sequence of the batch of its replica stored under its
  /// id (a retry after a lost answer).
  /// - Throws: `BatchIDTaken` when another replica's batch holds the id.
  public func push(_ batch: ChangeBatch) throws -> Int64 {
    let (sequence, listeners) = try state.withLock { state throws(BatchIDTaken) -> (Int64, [MemoryLiveChannel]) in
      if let (existing, owner) = state.batchSequence[batch.id] {
        guard owner.utf8.elementsEqual(batch.replica.utf8) else {
          throw BatchIDTaken(location: location, batchID: batch.id, owner: owner, pusher: batch.replica)
        }
        return (existing, [])
      }
      let sequence = state.compactedThrough + Int64(state.entries.count + 1)
      state.entries.append(CloudEntry(sequence: sequence, batch: batch))
      state.batchSequence[batch.id] = (sequence, batch.replica)
      return (sequence, Array(state.channels.values))
    }
    for channel in listeners { channel.send(.announced(sequence)) }
    return sequence
  }

  /// Opens a channel that announces every push to this cloud.
  public func openLiveChannel(_ handler: @escaping @Sendable (LiveSignal) -> Void) -> any LiveChannel {
    let channel = MemoryLiveChannel(handler: handler) { [weak self] channel in
      _ = self?.state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
    }
    let latest = state.withLock { state in
      state.channels[ObjectIdentifier(channel)] = channel
      return state.compactedThrough + Int64(state.entries.count)
    }
    channel.send(.opened(latestSequence: latest, heartbeat: nil))
    return channel
  }

  /// Ends every open live channel, as a dropped connection would (tests of the fallback).
  public func dropLiveChannels() {
    let all = state.withLock { state in
      defer { state.channels.removeAll() }
      return Array(state.channels.values)
    }
    for channel in all { channel.end("the cloud dropped the channel") }
  }

  /// Returns up to `limit` entries after `sequence`, oldest first.
  /// - Throws: `CloudError.compacted(location:cursor:firstKept:)` when entries after
  ///   `sequence` were compacted away.
  public func pull(after sequence: Int64, limit: Int) throws -> [CloudEntry] {
    try state.withLock { state throws(CloudError) in
      guard sequence >= state.compactedThrough else {
        throw CloudError.compacted(location: location, cursor: sequence, firstKept: state.compactedThrough + 1)
      }
      let start = Int(min(sequence - state.compactedThrough, Int64(state.entries.count)))
      let end = start + min(max(0, limit), state.entries.count - start)
      return Array(state.entries[start..<end])
    }
  }

  /// The newest sequence number (the log's floor and the entries after it).
  public func latestSequence() throws -> Int64 { state.withLock { $0.compactedThrough + Int64($0.entries.count) } }

  /// Records or updates a device in the registry.
  public func register(_ device: CloudDevice) throws {
    state.withLock { $0.devices[device.replicaID] = device }
  }

  /// The registered devices, by name.
  public func devices() throws -> [CloudDevice] {
    state.withLock { $0.devices.values.sorted { $0.name < $1.name } }
  }
}

/// A live channel of an ``InMemoryCloud``: signals are delivered on the pushing thread,
/// one at a time; nothing after ``LiveSignal/ended(_:)``.
final class MemoryLiveChannel: LiveChannel {
  private let handler: @Sendable (LiveSignal) -> Void
  private let onClose: @Sendable (MemoryLiveChannel) -> Void
  private let ended = Mutex(false)

  init(handler: @escaping @Sendable (LiveSignal) -> Void, onClose: @escaping @Sendable (MemoryLiveChannel) -> Void) {
    self.handler = handler
    self.onClose = onClose
  }

  func send(_ signal: LiveSignal) {
    ended.withLock { ended in
      guard !ended else { return }
      handler(signal)
    }
  }

  func end(_ reason: String) {
    ended.withLock { ended in
      guard !ended else { return }
      ended = true
      handler(.ended(reason))
    }
  }

  func close() {
    onClose(self)
    end("closed")
  }
}
