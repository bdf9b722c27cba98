import Foundation
import Testing

@testable import Sync

/// The randomized check notices a broken merge: each fault of `SyncMutation`, active for
/// one schedule, makes the seeds CI runs report violations. The faults in the view's
/// bookkeeping are caught by the reference view after a sync (a device's tables are not
/// the view of its states); the join that keeps the first writer leaves each device's
/// tables the view of its own, wrong, states, and is caught by the devices disagreeing.
@Suite("Mutations")
struct MutationTests {
  /// What found a fault: the seed and schedule, and the first violations.
  struct Finding {
    var seed: UInt64
    var wider: Bool
    var viewProblems: [String]
    var problems: [String]
  }

  /// Plays the CI seeds of both schedules with `mutation` active until one reports a
  /// violation (or a sync fails, as it would fail the test).
  static func firstFinding(_ mutation: SyncMutation, operations: Int = 400) -> Finding? {
    for seed in RandomizedConvergenceTests.seeds {
      for wider in [false, true] {
        let step = wider ? RandomizedConvergenceTests.widerWork : RandomizedConvergenceTests.work
        let finding = SyncMutation.$active.withValue(mutation) { () -> Finding in
          do {
            // A schedule stops at the first sync the reference view finds wrong.
            let (world, check) = try RandomizedConvergenceTests.play(
              seed: seed, operations: operations, step: step, stop: { !$0.viewProblems.isEmpty })
            let problems = world.viewProblems.isEmpty ? try RandomizedConvergenceTests.settle(world, check) : world.viewProblems
            return Finding(seed: seed, wider: wider, viewProblems: world.viewProblems, problems: problems)
          } catch {
            return Finding(seed: seed, wider: wider, viewProblems: [], problems: ["sync failed: \(error)"])
          }
        }
        if !finding.problems.isEmpty { return finding }
      }
    }
    return nil
  }

  @Test(arguments: [SyncMutation.dropKeyHolderRule, .skipDependencyNote, .staleRowCache])
  func theReferenceViewCatchesABrokenView(_ mutation: SyncMutation) throws {
    let finding = try #require(Self.firstFinding(mutation), "\(mutation) went unnoticed by seeds \(RandomizedConvergenceTests.seeds)")
    #expect(
      !finding.viewProblems.isEmpty,
      "\(mutation): seed \(finding.seed) found it by \(finding.problems.prefix(3)), not by the reference view")
  }

  @Test func theConvergenceCheckCatchesAJoinThatKeepsTheFirstWriter() throws {
    let finding = try #require(Self.firstFinding(.joinKeepsFirstWriter), "a join that keeps the first writer went unnoticed")
    #expect(finding.problems.contains { !$0.contains("sync failed") })
  }
}
