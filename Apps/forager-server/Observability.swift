import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus

/// `serve --metrics-port`: the process's metrics (swift-metrics, bootstrapped once with
/// swift-prometheus) served as Prometheus text on `GET /metrics` of a listener of its own,
/// apart from the protocol's port, so it can stay on a private address.
enum MetricsEndpoint {
  /// Sends the process's metrics to a Prometheus registry; names and label keys get `_`
  /// for the dots Hummingbird's metrics use, which Prometheus does not allow.
  static func bootstrap() -> PrometheusCollectorRegistry {
    let registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.nameAndLabelSanitizer = { name, labels in
      (Self.sanitized(name), labels.map { (Self.sanitized($0.0), $0.1) })
    }
    MetricsSystem.bootstrap(factory)
    return registry
  }

  static func sanitized(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" ? $0 : "_" })
  }

  /// The listener serving `GET /metrics` on `host:port` (0: a free port, reported to `onRunning`).
  static func application(
    registry: PrometheusCollectorRegistry, host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void
  ) -> some ApplicationProtocol {
    let router = Router()
    router.get("/metrics") { _, _ in
      var text: [UInt8] = []
      registry.emit(into: &text)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
    return Application(
      router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "forager-server-metrics"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
  }
}

/// `serve --log-format json`: one JSON object per log line on standard error — time, level,
/// label, message and the line's metadata as fields (a request's method, path, status,
/// duration, household and device).
struct JSONLogHandler: LogHandler {
  let label: String
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var fields: [String: String] = [:]
    for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { fields[key] = "\(value)" }
    fields["time"] = Date().formatted(.iso8601)
    fields["level"] = event.level.rawValue
    fields["label"] = label
    fields["message"] = "\(event.message)"
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard var line = try? encoder.encode(fields) else { return }
    line.append(0x0A)
    FileHandle.standardError.write(line)
  }
}
