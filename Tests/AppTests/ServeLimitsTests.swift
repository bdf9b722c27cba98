import ArgumentParser
import Foundation
import SyncServer
import Testing

@testable import forager_server

/// `serve`'s numeric options come from one table (`ServeLimit.all`): every one of them is
/// refused outside its range with a message naming it, lands in the configuration the
/// service runs with, says its range in the help, and Docs/SERVER.md's table is the table's.
@Suite("serve's table of limits")
struct ServeLimitsTests {
  static let page = Executables.packageRoot.appending(path: "Docs/SERVER.md")

  func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try Serve.parse(arguments)
      return nil
    } catch {
      return Serve.message(for: error)
    }
  }

  @Test(arguments: ServeLimit.all.map(\.name))
  func aValueOutsideTheRangeIsRefusedNamingTheOptionItsRangeAndTheValue(name: String) throws {
    let limit = try #require(ServeLimit.all.first { $0.name == name })
    let (low, high) = (limit.range.lowerBound, limit.range.upperBound)
    for bad in [low - 1, high + 1, Int.min] {
      let message = refusal(["--\(name)=\(bad)"])
      #expect(message == "--\(name) must be a whole number from \(low) to \(high); got \(bad)", "--\(name) \(bad)")
    }
    let word = refusal(["--\(name)", "many"])
    #expect(word?.contains("--\(name)") == true, "\(word ?? "accepted")")
  }

  @Test(arguments: ServeLimit.all.map(\.name))
  func aValueInsideTheRangeIsParsedIntoItsOptionAndItsSetting(name: String) throws {
    let limit = try #require(ServeLimit.all.first { $0.name == name })
    // The lowest value: the highest of some is bounded by --max-connections as well.
    let value = limit.range.lowerBound + (limit.range.count > 2 ? 1 : 0)
    let serve = try Serve.parse(["--\(name)", "\(value)"])
    #expect(serve[keyPath: limit.option] == value)
    #expect(limit.value(in: serve) == value)
    if case .serve = limit.setting { return }
    #expect(ServeLimit.read(limit.setting, from: serve.serverConfiguration) == value)
  }

  @Test func withNoOptionsTheServiceRunsWithTheDefaults() throws {
    let serve = try Serve.parse([])
    let configuration = serve.serverConfiguration
    let defaults = ServerConfiguration()
    for limit in ServeLimit.all {
      guard case .configuration = limit.default else { continue }
      #expect(ServeLimit.read(limit.setting, from: configuration) == ServeLimit.read(limit.setting, from: defaults), "\(limit.name)")
    }
    #expect(configuration.maxConnectionsPerAddress == 128)
    #expect(configuration.addressRequestsPerSecond == 200)
    #expect(configuration.liveSubscribers == 256)
    #expect(configuration.checkSlots == ServerConfiguration.defaultCheckSlots)
    #expect(ServeLimit.port.value(in: serve) == 8080)
    #expect(ServeLimit.metricsPort.value(in: serve) == nil)
    let behindProxy = try Serve.parse(["--trust-forwarded-for", "--max-connections", "100"])
    #expect(behindProxy.serverConfiguration.maxConnectionsPerAddress == nil)
    #expect(behindProxy.serverConfiguration.liveSubscribers == 50)
    #expect(behindProxy.serverConfiguration.trustForwardedFor)
  }

  @Test func theOptionsThatDependOnEachOtherAreRefusedTogether() {
    #expect(
      refusal(["--max-connections", "10", "--max-connections-per-address", "11"])
        == "--max-connections-per-address (11) must be at most --max-connections (10)")
    #expect(refusal(["--max-connections", "10", "--live-subscribers", "10"])?.hasPrefix("--live-subscribers (10) must be below") == true)
    #expect(refusal(["--trust-forwarded-for", "--max-connections-per-address", "5"])?.contains("--trust-forwarded-for") == true)
  }

  @Test func everyNumericOptionOfServeIsInTheTableAndSaysItsRangeAndDefaultInTheHelp() {
    let options = Mirror(reflecting: Serve()).children.filter { $0.value is Option<Int?> }.compactMap(\.label)
    let names = options.map { label in
      label.dropFirst().map { $0.isUppercase ? "-\($0.lowercased())" : "\($0)" }.joined()
    }
    #expect(Set(names) == Set(ServeLimit.all.map(\.name)), "\(names)")
    #expect(Set(ServeLimit.all.map(\.name)).count == ServeLimit.all.count)
    let help = Serve.helpMessage(columns: 10_000)
    for limit in ServeLimit.all {
      #expect(help.contains("--\(limit.name) <\(limit.name)>"), "\(limit.name)")
      #expect(help.contains("(\(limit.rangeText); default: \(limit.defaultText))."), "\(limit.name)")
    }
    #expect(help.contains("(1024–67108864 bytes, i.e. 1 KiB to 64 MiB; default: 4 MiB)"))
  }

  @Test func theServerPagesTableIsTheTable() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    let problem = ServeLimitsDoc.mismatch(in: text)
    #expect(problem == nil, "\(problem ?? "")")
  }

  @Test func aPageThatDiffersOrHasNoRegionFails() throws {
    let page = "# Page\n\n" + ServeLimitsDoc.markdown + "\n\nMore.\n"
    #expect(ServeLimitsDoc.mismatch(in: page) == nil)
    let drifted = page.replacingOccurrences(of: "| 1–10000 | 1000 |", with: "| 1–10000 | 500 |")
    #expect(drifted != page)
    let problem = try #require(ServeLimitsDoc.mismatch(in: drifted))
    #expect(problem.contains("found | `serve --max-pull-limit` | 1–10000 | 500 |"), "\(problem)")
    #expect(ServeLimitsDoc.mismatch(in: "# No table\n")?.contains("has no region") == true)
    let stale = "# Before\n\n\(ServeLimitsDoc.begin)\n| old |\n\(ServeLimitsDoc.end)\n\nAfter.\n"
    #expect(ServeLimitsDoc.updating(stale) == "# Before\n\n" + ServeLimitsDoc.markdown + "\n\nAfter.\n")
  }
}
