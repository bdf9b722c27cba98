import Foundation
import ServerTestSupport
import SpawnSupport
import TestSupport
import Testing

/// `serve --metrics-port` serves Prometheus text from swift-metrics on a port of its own —
/// requests by route and status with duration histograms, batches and bytes stored per
/// household — and `--log-format json` writes one JSON object per request with household,
/// device, route, status and duration.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(3)))
struct ObservabilityTests {
  @Test func metricsAreServedAsPrometheusTextAndRequestsAreLoggedAsJSON() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone"])
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server",
      arguments: ["--metrics-port", "0", "--log-format", "json", "--log-level", "info"])
    defer { server.stop() }
    var metricsURL: String?
    for _ in 0..<100 where metricsURL == nil {
      let text = (try? String(contentsOf: server.log, encoding: .utf8)) ?? ""
      if let range = text.range(of: #"metrics on (http://127\.0\.0\.1:[0-9]+/metrics)"#, options: .regularExpression) {
        metricsURL = String(text[range].dropFirst("metrics on ".count))
      } else {
        usleep(50_000)
      }
    }
    let metrics = try #require(metricsURL)
    let run = try ServerProcessesTests.batch(
      directory.appendingPathComponent("phone.sqlite"),
      """
      cloud open \(server.url) --token-file \(directory.appendingPathComponent("phone.token").path)
      category add Produce
      sync
      """)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    #expect(try ServerAvailabilityTests.get(server.url + "/v1/session").status == 401)

    let scraped = try ServerAvailabilityTests.get(metrics)
    #expect(scraped.status == 200 && scraped.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
    let text = scraped.body
    for expected in [
      #"hb_requests{http_route="/v1/batches",http_request_method="POST",http_response_status_code="201"} 1"#,
      #"hb_requests{http_route="/v1/session",http_request_method="GET",http_response_status_code="401"} 1"#,
      #"http_server_request_duration_bucket{http_route="/v1/batches",http_request_method="POST",http_response_status_code="201",le="#,
      #"forager_batches_stored_total{household="Smith kitchen"} 1"#,
      "forager_bytes_stored_total{household=\"Smith kitchen\"} ",
      // Every storage call of a request leased its connection through the measured pool.
      "forager_database_wait_seconds_bucket{le=",
      "forager_database_waiting ",
      "forager_database_leased ",
      "forager_open_connections ",
    ] {
      #expect(text.contains(expected), "metrics lack \(expected)")
    }

    // One JSON object per request line, with who made it.
    let lines = ((try? String(contentsOf: server.log, encoding: .utf8)) ?? "").split(separator: "\n")
    let requests = lines.compactMap { line -> [String: String]? in
      guard line.hasPrefix("{"), let object = try? JSONDecoder().decode([String: String].self, from: Data(line.utf8)) else { return nil }
      return object["path"] == nil ? nil : object
    }
    let push = requests.first { $0["method"] == "POST" && $0["path"] == "/v1/batches" }
    #expect(push?["household"] == "Smith kitchen" && push?["device"] == "phone" && push?["status"] == "201", "\(requests)")
    #expect(push?["duration_ms"].flatMap(Double.init) != nil)
    #expect(requests.contains { $0["path"] == "/v1/session" && $0["status"] == "401" && $0["household"] == nil })
    #expect(Self.value("forager_database_wait_seconds_count", in: text).map { $0 >= 3 } == true, "\(text)")
  }

  /// `forager_open_connections` counts client connections of the protocol's port: up by one
  /// while an idle keep-alive connection is held open, down again once it is closed.
  @Test func openConnectionsAreCountedWhileHeldAndNotAfter() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: [])
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--metrics-port", "0", "--idle-timeout", "120"])
    defer { server.stop() }
    let metrics = try Self.metricsURL(server)
    // The start-up checks' connections are gone once the gauge reads 0 (scrapes go to another port).
    #expect(Self.poll(metrics) { $0 == 0 }, "connections are counted before any is open")
    let before = 0.0
    var connection: ConnectionLimitsTests.Connection? = try ConnectionLimitsTests.Connection(port: ConnectionLimitsTests.port(server.url))
    connection?.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let answer = connection?.receive(within: 0.5)
    #expect(answer?.closed == false)
    #expect(Self.poll(metrics) { $0 == before + 1 }, "the held connection was not counted")
    connection = nil
    #expect(Self.poll(metrics) { $0 == before }, "the closed connection is still counted")
  }

  /// The metrics listener's URL, as the server printed it.
  static func metricsURL(_ server: ServerProcess) throws -> String {
    for _ in 0..<600 {
      let text = (try? String(contentsOf: server.log, encoding: .utf8)) ?? ""
      if let range = text.range(of: #"metrics on (http://127\.0\.0\.1:[0-9]+/metrics)"#, options: .regularExpression) {
        return String(text[range].dropFirst("metrics on ".count))
      }
      usleep(100_000)
    }
    throw TemporaryPostgres.Failure("the server printed no metrics address")
  }

  /// The value of the sample `name` (no labels) in Prometheus text.
  static func value(_ name: String, in text: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
  }

  static func openConnections(_ metrics: String) -> Double? {
    (try? ServerAvailabilityTests.get(metrics, maxTime: 60)).flatMap { value("forager_open_connections", in: $0.body) }
  }

  /// Whether the open-connections gauge meets `condition` within a minute of scrapes.
  static func poll(_ metrics: String, until condition: (Double) -> Bool) -> Bool {
    for _ in 0..<300 {
      if let value = openConnections(metrics), condition(value) { return true }
      usleep(200_000)
    }
    return false
  }
}
