import Foundation
import Sync
import SyncHTTP
import SyncServer
import SyncServerMemory
import Testing

/// A live channel whose token stops holding is not opened again and again: the server
/// closes it with a `token-…` reason, and the cloud reports it as refused for an hour, so
/// the device polls (and its polls say the token is revoked) instead of resubscribing.
@Suite(.timeLimit(.minutes(5)))
struct LiveTokenEndTests {
  @Test func aRevokedTokensChannelIsRefusedForAnHour() async throws {
    let storage = MemoryHouseholdStorage()
    let secrets = try await tokens(storage, devices: ["laptop"])
    try await withServer(storage, configuration: LiveChannelTests.fast()) { url, _ in
      let signals = LiveChannelTests.Signals()
      let laptop = try await onThread { try HTTPCloud(url: url, token: secrets[0]) }
      let channel = laptop.openLiveChannel(signals.handler)
      defer { channel.close() }
      #expect(await signals.first(where: LiveChannelTests.opened) != nil)
      #expect(try await Administration(storage: storage).revokeTokens(household: "Smith", device: "laptop") == 1)
      let last = await signals.first {
        switch $0 {
        case .ended, .refused: true
        default: false
        }
      }
      guard case .refused(let reason, let retryAfter)? = last else {
        Issue.record("the channel ended with \(String(describing: last)), not a refusal")
        return
      }
      #expect(reason.contains("token-revoked"), "\(reason)")
      #expect(retryAfter == .seconds(3_600))
    }
  }
}
