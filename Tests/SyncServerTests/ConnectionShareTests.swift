import Foundation
import Prometheus
import SyncServer
import SyncWire
import Testing

/// The hostile side of the connection cap: a client address that keeps opening connections
/// (and opens a new one whenever one is closed) holds only its share, and probes from
/// another address are still accepted and answered.
@Suite(
  .timeLimit(.minutes(1)),
  .enabled(
    if: ProcessInfo.processInfo.environment["FORAGER_LOAD_TESTS"] == "1",
    "tops connections up against a server flat out: it runs alone, after the other tests (Scripts/test.sh)"))
struct ConnectionShareTests {
  @Test func anAddressToppingItsConnectionsUpKeepsItsShareAndAnotherAddressIsServed() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = ServerFixture(metricsFactory: PrometheusMetricsFactory(registry: registry)) {
      $0.maxConnections = 6
      $0.maxConnectionsPerAddress = 2
      $0.idleTimeout = .seconds(30)
    }
    let stop = StopFlag()
    let outcome = try await withLoopbackServer(fixture.service) { port in
      // The attacker: six silent connections from 127.0.0.2, each opened again once closed.
      let attack = Task {
        try await onThread {
          var held = try (0..<6).map { _ in try LoopbackConnection(from: "127.0.0.2", port: port) }
          var reopened = 0
          while !stop.isSet {
            for index in held.indices where held[index].receiveUntilClosed(within: 0.01) != nil {
              held[index] = try LoopbackConnection(from: "127.0.0.2", port: port)
              reopened += 1
            }
          }
          return reopened
        }
      }
      defer { stop.set() }
      try await Task.sleep(for: .milliseconds(300))
      let probes = try await onThread {
        var statuses: [Int?] = []
        // Until one is not answered (without the share, the first is not even accepted).
        while statuses.count < 10, statuses.last ?? 200 == 200 {
          let connection = try LoopbackConnection(from: "127.0.0.3", port: port)
          statuses.append(connection.request("GET", Wire.Path.health, within: 2).status)
        }
        return statuses
      }
      stop.set()
      let reopened = try await attack.value
      // The server accepts in order: once a last probe is answered, it has taken every
      // connection the attacker opened, and none arrives while it stops (Hummingbird traps on
      // a connection that becomes active after its accept loop has ended).
      _ = try await onThread { try LoopbackConnection(from: "127.0.0.3", port: port).request("GET", Wire.Path.health, within: 10) }
      try await Task.sleep(for: .milliseconds(200))
      return (probes: probes, reopened: reopened)
    }
    #expect(outcome.probes == Array(repeating: 200, count: 10), "\(outcome.probes)")
    // Past its share the attacker's connections were closed, again and again.
    #expect(outcome.reopened >= 4)
    var text: [UInt8] = []
    registry.emit(into: &text)
    let metrics = String(decoding: text, as: UTF8.self)
    let line = metrics.split(separator: "\n").first { $0.hasPrefix(#"forager_connections_refused_total{limit="address"}"#) }
    let refused = line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    #expect(refused >= 4, "\(metrics)")
  }
}
