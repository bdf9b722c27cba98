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
  }
}
