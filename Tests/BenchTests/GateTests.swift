import Foundation
import Testing

@testable import Bench

/// The regression gate fails a run on what it exists to catch, and passes a run within its
/// bounds (Docs/PERFORMANCE.md, "Regression gate").
@Suite struct GateTests {
  /// A result of scenario `id` with `ratio` and `verdict`, as a child process reports it;
  /// `ratio` is also the figure the scenario's bound reads, if it reads one.
  static func result(_ id: String, ratio: Double?, verdict: String = "met") throws -> ScenarioResult {
    let json = """
      {"id": "\(id)", "title": "t", "target": "t", "verdict": "\(verdict)", "parameters": {}, "figures": {}}
      """
    var result = try JSONDecoder().decode(ScenarioResult.self, from: Data(json.utf8))
    result.ratio = ratio
    if let figure = Gate.bounds[id]?.figure { result.figures[figure] = ratio }
    return result
  }

  @Test func passesRatiosWithinTheirBounds() throws {
    let results = try Gate.bounds.map { id, bound in try Self.result(id, ratio: bound.ratio * 0.99) }
    #expect(Gate.failures(results).isEmpty)
  }

  @Test func failsADoubledCostOfAnyGatedScenario() throws {
    // The figures of the last reference run, doubled: every bound must catch it.
    for (id, bound) in Gate.bounds {
      let failures = Gate.failures([try Self.result(id, ratio: bound.ratio * 1.01)])
      #expect(failures.count == 1 && failures[0].hasPrefix("\(id): \(bound.figure ?? "ratio") "), "\(id): \(failures)")
    }
  }

  @Test func failsAGatedScenarioThatDidNotRunOrReportsNoRatio() throws {
    #expect(Gate.failures([try Self.result("sync", ratio: 1, verdict: "error")]) == ["sync: error"])
    #expect(Gate.failures([try Self.result("sync", ratio: nil)]) == ["sync: reports no ratio"])
    #expect(Gate.failures([try Self.result("sync", ratio: .infinity)]) == ["sync: reports no ratio"])
  }

  @Test func readsTheFigureABoundNamesNotTheRatio() throws {
    let figure = try #require(Gate.bounds["snapshot"]?.figure)
    var result = try Self.result("snapshot", ratio: 1)
    result.figures[figure] = nil
    #expect(Gate.failures([result]) == ["snapshot: reports no \(figure)"])
    result.figures[figure] = 3.5
    #expect(Gate.failures([result]).first?.hasPrefix("snapshot: \(figure) 3.50×") == true)
  }

  @Test func ignoresScenariosWithoutABound() throws {
    #expect(Gate.bounds["repl"] == nil)
    #expect(Gate.failures([try Self.result("repl", ratio: 1_000)]).isEmpty)
  }

  @Test func everyBoundNamesAScenarioThatExists() {
    let ids = Set(Scenarios.all.map(\.id))
    #expect(Set(Gate.bounds.keys).subtracting(ids).isEmpty)
    for id in Gate.bounds.keys { #expect(Gate.sizes.keys.contains { $0.hasPrefix(id + ".") }) }
  }
}
