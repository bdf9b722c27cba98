import Foundation
import FuzzSupport
import Model
import Persistence
import Sync
import TestSupport
import Testing

/// A seeded mutation run over the batch decoder, the pull's checks and the join: honest
/// batches, mutated byte by byte and field by field, are pulled by one device, which must
/// never trap or throw, must show the reference view of its states after each input, and
/// must show what an honest observer of the same log shows — on both store backends. The
/// run is bounded (`FORAGER_FUZZ_RUNS`, 400 by default, a third of it on SQLite); a longer
/// one, and the libFuzzer target, are in Docs/SYNC.md ("Hostile devices").
@Suite("Fuzzed batches")
struct BatchFuzzTests {
  static let runs = ProcessInfo.processInfo.environment["FORAGER_FUZZ_RUNS"].flatMap(Int.init) ?? 400

  @Test(arguments: [(1, .memory), (2, .memory), (3, .sqlite)] as [(UInt64, TestBackend)])
  func mutatedBatchesNeverStopOrForkADevice(_ seed: UInt64, _ backend: TestBackend) throws {
    let seeds = try BatchFuzzHarness.seeds()
    #expect(seeds.count >= 4)
    let harness = try BatchFuzzHarness { try backend.makeStore(clock: $0) }
    var mutator = BatchMutator(seed: seed, seeds: seeds)
    let runs = backend == .sqlite ? Self.runs / 3 : Self.runs
    for run in 0..<runs {
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

  /// The harness's checks find what they look for: a row changed behind sync's back is
  /// a device whose tables are not the view of its states.
  @Test func theHarnessFindsATableThatIsNotTheViewOfItsStates() throws {
    let seeds = try BatchFuzzHarness.seeds()
    let harness = try BatchFuzzHarness()
    try harness.store.write(origin: .sync) { writer in
      let tomato = try #require(try writer.fetch(RecordQuery(.ingredientTemplate)).first)
      var changed = tomato
      changed["isStaple"] = .bool(true)
      try writer.updateRecord(changed, replacing: tomato)
    }
    #expect(throws: BatchFuzzHarness.Finding.self) { try harness.feed(seeds[0]) }
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
