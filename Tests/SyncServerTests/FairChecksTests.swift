import Foundation
import HTTPTypes
import HummingbirdTesting
import Model
import Sync
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// The hostile side of batch checks: a household pushing batches that are cheap to send and
/// costly to check, flat out over several connections, does not keep another household's
/// requests from being answered, and a check that outlasts its deadline is abandoned.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(
    if: ProcessInfo.processInfo.environment["FORAGER_LOAD_TESTS"] == "1",
    "floods a server flat out and measures answers: it runs alone, after the other tests (Scripts/test.sh)"))
struct FairChecksTests {
  /// A batch small on the wire — each paragraph is written once — that costs the checks
  /// `changes` × 40 paragraphs of 1,000 characters; with `valid` false its last change
  /// carries another replica's stamp, so the whole batch is checked and then refused.
  static func costly(changes: Int, valid: Bool = true) -> Data {
    let paragraph = String(repeating: "Stir the soup slowly. ", count: 45)
    var records = (0..<changes).map { _ in CostBoundRouteTests.recipe(Array(repeating: paragraph, count: 40)) }
    if !valid, let last = records.popLast() {
      var fields = last.fields
      fields["displayName"] = StampedValue(
        value: .text("Soup"), stamp: Stamp(time: CostBoundRouteTests.now - 1_000, counter: 0, replica: "b"))
      records.append(
        RecordChange(
          kind: last.kind, id: last.id, createdAt: last.createdAt, updatedAt: last.updatedAt, ownerID: last.ownerID,
          sharingScope: last.sharingScope, fields: fields))
    }
    return ChangeBatchCoding.encode(ChangeBatch(id: "a:1-\(changes)", replica: "a", schemaVersion: 3, changes: records))
  }

  @Test func aCheckPastItsDeadlineIsAbandonedAndStoresNothing() async throws {
    let fixture = ServerFixture(maxBatchBytes: 4 << 20) { $0.checkTimeout = .milliseconds(20) }
    let phone = try await fixture.token()
    // Hundreds of milliseconds of checks, and more in a debug build.
    let body = Self.costly(changes: 300)
    try await fixture.test { client in
      let response = try await client.push(body, token: phone, deviceSequence: 1)
      #expect(response.status == .serviceUnavailable, "\(response.text)")
      #expect(response.refusal?.code == "check-timeout")
      #expect(response.refusal?.message.contains("longer than this server's limit of 20 ms") == true, "\(response.text)")
      #expect(response.headers[.retryAfter] == "2")
      // A small batch of the same device is checked within the limit.
      let small = try await client.push(batchBytes(id: "a:1", replica: "a"), token: phone, deviceSequence: 1)
      #expect(small.status == .created, "\(small.text)")
    }
    let household = try #require(await fixture.storage.household(named: "Smith"))
    #expect(await fixture.storage.latestSequence(of: household.id) == 1)
  }

  @Test func aHouseholdPushingCostlyBatchesFlatOutLeavesAnotherHouseholdAnswered() async throws {
    let fixture = ServerFixture(maxBatchBytes: 4 << 20) {
      $0.checkSlots = 1
      $0.checksPerHousehold = 1
      $0.checkTimeout = .seconds(120)
      $0.tokenRequestsPerSecond = 10_000
      $0.tokenBurst = 10_000
    }
    var flooders: [String] = []
    for index in 0..<4 { flooders.append(try await fixture.token("Flood", device: "d\(index)")) }
    let honest = try await fixture.token("Smith", device: "phone")
    let tokens = flooders
    let hostile = Self.costly(changes: 60, valid: false)
    let stop = StopFlag()
    let outcome = try await withLoopbackServer(fixture.service) { port in
      defer { stop.set() }
      // One hostile check alone: how long a flooder's batch holds the CPU.
      let alone = try await onThread {
        let start = seconds()
        let connection = try LoopbackConnection(from: "127.0.0.2", port: port)
        let answer = connection.push(hostile, token: tokens[0], deviceSequence: 1, within: 60)
        return (seconds() - start, answer.status)
      }
      #expect(alone.1 == 422)
      let flood = (0..<4).map { index in
        Task {
          try await onThread {
            var answers: [Int?] = []
            while !stop.isSet {
              let connection = try LoopbackConnection(from: "127.0.0.2", port: port)
              answers.append(connection.push(hostile, token: tokens[index], deviceSequence: 1, within: 60).status)
            }
            return answers
          }
        }
      }
      // Once the flood holds the checks, the other household pushes and pulls, one after another.
      try await Task.sleep(for: .seconds(alone.0 / 2))
      let latencies = try await onThread {
        var latencies: [Double] = []
        for sequence in 1...5 {
          var start = seconds()
          let small = batchBytes(id: "a:\(sequence)", replica: "a")
          let pushed = try LoopbackConnection(from: "127.0.0.3", port: port).push(
            small, token: honest, deviceSequence: Int64(sequence), within: 60)
          latencies.append(seconds() - start)
          #expect(pushed.status == 201, "\(pushed.text)")
          start = seconds()
          let pulled = try LoopbackConnection(from: "127.0.0.3", port: port).request(
            "GET", Wire.Path.batches, token: honest, within: 60)
          latencies.append(seconds() - start)
          #expect(pulled.status == 200, "\(pulled.text)")
        }
        return latencies
      }
      stop.set()
      var floodAnswers: [Int?] = []
      for task in flood { floodAnswers += try await task.value }
      return (alone: alone.0, latencies: latencies, flood: floodAnswers)
    }
    // The flood was checked the whole time (each of its batches refused after a full check).
    #expect(outcome.flood.count >= 4 && outcome.flood.allSatisfy { $0 == 422 }, "\(outcome.flood)")
    // Without turns, four checks at once hold every cooperative thread and each of the other
    // household's requests waits for one or more of them to end: its median is several whole
    // checks. With turns it waits for a slice of one; the bound is loose (a whole check)
    // because the tests running beside this one share the one thread the check leaves.
    let sorted = outcome.latencies.sorted()
    let median = sorted[sorted.count / 2]
    #expect(
      median < outcome.alone,
      "the other household's requests took \(sorted) s; one costly check alone takes \(outcome.alone) s")
  }
}
