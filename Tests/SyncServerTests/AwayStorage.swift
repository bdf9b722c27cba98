import Foundation
import ServerTestSupport
import SyncServer
import SyncServerMemory
import SyncWire

/// Storage whose database can go away: while it is away, every call of a request (and every
/// check) waits until it is cancelled, as a call waiting for a connection to a database that
/// is down does. It counts the calls that reached it while away.
final class AwayStorage: ForwardingStorage, @unchecked Sendable {
  let inner = MemoryHouseholdStorage()
  private let lock = NSLock()
  private var isAway = false
  private var waited = 0

  var away: Bool {
    get { lock.withLock { isAway } }
    set { lock.withLock { isAway = newValue } }
  }

  /// How many calls waited on the absent database.
  var callsWhileAway: Int { lock.withLock { waited } }

  private func reach() async throws {
    guard
      lock.withLock({ () -> Bool in
        if isAway { waited += 1 }
        return isAway
      })
    else { return }
    try await Task.sleep(for: .seconds(3_600))
  }

  func checkReachable() async throws { try await reach() }
  func credential(forTokenHash hash: Data) async throws -> Credential? {
    try await reach()
    return await inner.credential(forTokenHash: hash)
  }
  func append(
    _ batch: IncomingBatch, from credential: Credential, deviceSequence: Int64, quota: HeldBatchQuota, now: Date
  ) async throws -> PushReceipt {
    try await reach()
    return try await inner.append(batch, from: credential, deviceSequence: deviceSequence, quota: quota, now: now)
  }
  func batches(of household: Int64, after sequence: Int64, limit: Int) async throws -> [PulledBatch] {
    try await reach()
    return await inner.batches(of: household, after: sequence, limit: limit)
  }
  func latestSequence(of household: Int64) async throws -> Int64 {
    try await reach()
    return await inner.latestSequence(of: household)
  }
  func deviceState(of device: Int64) async throws -> DeviceState {
    try await reach()
    return await inner.deviceState(of: device)
  }
  func register(_ registration: DeviceRegistration, for credential: Credential, now: Date) async throws -> DeviceEntry {
    try await reach()
    return try await inner.register(registration, for: credential, now: now)
  }
}
