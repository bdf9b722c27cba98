import Foundation
import FuzzSupport
import Model
import Sync
import Testing

/// A seeded mutation run over the batch decoder, the pull's checks and the join: honest
/// batches, mutated byte by byte and field by field, are pulled by one device, which must
/// never trap or throw. The run is bounded (`FORAGER_FUZZ_RUNS`, 400 by default); a longer
/// one, and the libFuzzer target, are in Docs/SYNC.md ("Hostile devices").
@Suite("Fuzzed batches")
struct BatchFuzzTests {
  static let runs = ProcessInfo.processInfo.environment["FORAGER_FUZZ_RUNS"].flatMap(Int.init) ?? 400

  @Test(arguments: [1, 2] as [UInt64])
  func mutatedBatchesNeverStopADevice(_ seed: UInt64) throws {
    let seeds = try BatchFuzzHarness.seeds()
    #expect(seeds.count >= 4)
    let harness = try BatchFuzzHarness()
    var mutator = BatchMutator(seed: seed, seeds: seeds)
    for run in 0..<Self.runs {
      let input = mutator.next()
      do {
        try harness.feed(input)
      } catch {
        let head = input.prefix(64).map { String($0, radix: 16) }.joined(separator: " ")
        Issue.record("seed \(seed), run \(run): sync threw \(error) on \(input.count) bytes: \(head)")
        return
      }
    }
  }

  @Test func theMutatorReachesThePullsChecksNotOnlyTheDecoder() throws {
    let seeds = try BatchFuzzHarness.seeds()
    var mutator = BatchMutator(seed: 3, seeds: seeds)
    var decoded = 0, undecodable = 0
    for _ in 0..<300 {
      if (try? ChangeBatchCoding.decode(mutator.next())) != nil { decoded += 1 } else { undecodable += 1 }
    }
    #expect(decoded > 30 && undecodable > 30, "decoded \(decoded), undecodable \(undecodable)")
  }
}
