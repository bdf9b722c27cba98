import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import SyncPostgres
import SyncServer

/// A household with one token per device, through the administration commands' code.
func household(_ storage: any HouseholdStorage, _ name: String = "Smith", devices: [String]) async throws -> [String: Credential] {
  let admin = Administration(storage: storage)
  if try await storage.household(named: name) == nil { _ = try await admin.addHousehold(name) }
  var credentials: [String: Credential] = [:]
  for device in devices {
    let issued = try await admin.issueToken(household: name, device: device)
    credentials[device] = try await storage.credential(forTokenHash: issued.token.hash)
  }
  return credentials
}

func batch(_ id: String, replica: String, schemaVersion: Int = 3, bytes: Int = 16) -> IncomingBatch {
  IncomingBatch(
    id: id, replica: replica, schemaVersion: schemaVersion, bytes: Data((id + "|" + replica).utf8) + Data(repeating: 7, count: bytes))
}

/// Follows a household's log page by page, as a device does, and records whether a page
/// ever skipped a sequence number: a skipped batch would never be delivered to it.
struct LogFollower {
  private(set) var cursor: Int64 = 0
  private(set) var delivered: [Int64] = []
  private(set) var skips: [String] = []

  mutating func take(_ page: [Int64]) {
    for sequence in page {
      if sequence != cursor + 1 { skips.append("after \(cursor) came \(sequence)") }
      cursor = sequence
      delivered.append(sequence)
    }
  }
}
