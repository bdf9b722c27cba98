import Metrics
import SyncWire

/// What the server counts, through swift-metrics: the process's `MetricsSystem` decides
/// where the numbers go (`forager-server serve --metrics-port` serves them as Prometheus
/// text). Requests by route and status, and their durations as histograms, come from
/// Hummingbird's `MetricsMiddleware` on the router; these are the server's own:
///
/// | Metric | Kind | Labels |
/// |---|---|---|
/// | `forager_batches_stored_total`, `forager_bytes_stored_total` | counter | `household` |
/// | `forager_batches_pulled_total`, `forager_bytes_pulled_total` | counter | — |
/// | `forager_rate_limited_total` | counter | `limit` (token, address: which limit refused) |
/// | `forager_storage_unavailable_total` | counter | — (requests answered 503) |
/// | `forager_checks_refused_total` | counter | `code` (check-queue-full, checks-busy, check-timeout: pushes whose batch check was refused or abandoned) |
/// | `forager_household_quota_refused_total` | counter | `quota` (stored, daily: which household quota refused a push) |
/// | `forager_storage_refused_total` | counter | `kind` (value, constraint, size: a request's data the database refused) |
/// | `forager_database_available` | gauge | — (1 or 0, as the last call or check found it) |
/// | `forager_live_subscribers` | gauge | — (open live subscriptions) |
/// | `forager_live_events_total` | counter | `event` (hello, sequence, heartbeat, closing) |
/// | `forager_live_refused_total` | counter | `code` (live-token-limit, live-full, live-closing) |
struct ServerMetrics: Sendable {
  let factory: any MetricsFactory
  /// The live event counters, one per event name, made once: every event of every stream
  /// counts, and making a counter asks the factory (a lock and a lookup) each time.
  private let liveEvents: [LiveEvent.Name: Counter]

  init(factory: any MetricsFactory) {
    self.factory = factory
    liveEvents = Dictionary(
      uniqueKeysWithValues: LiveEvent.Name.allCases.map { name in
        (name, Counter(label: "forager_live_events_total", dimensions: [("event", name.rawValue)], factory: factory))
      })
  }

  func stored(household: String, bytes: Int) {
    Counter(label: "forager_batches_stored_total", dimensions: [("household", household)], factory: factory).increment()
    Counter(label: "forager_bytes_stored_total", dimensions: [("household", household)], factory: factory).increment(by: Int64(bytes))
  }

  func pulled(batches: Int, bytes: Int) {
    Counter(label: "forager_batches_pulled_total", factory: factory).increment(by: Int64(batches))
    Counter(label: "forager_bytes_pulled_total", factory: factory).increment(by: Int64(bytes))
  }

  func rateLimited(limit: String) {
    Counter(label: "forager_rate_limited_total", dimensions: [("limit", limit)], factory: factory).increment()
  }

  func householdQuotaRefused(_ quota: String) {
    Counter(label: "forager_household_quota_refused_total", dimensions: [("quota", quota)], factory: factory).increment()
  }

  func storageRefused(_ kind: StorageError.Refusal.Kind) {
    Counter(label: "forager_storage_refused_total", dimensions: [("kind", kind.rawValue)], factory: factory).increment()
  }

  func checkRefused(_ code: String) {
    Counter(label: "forager_checks_refused_total", dimensions: [("code", code)], factory: factory).increment()
  }

  func storageUnavailable() { Counter(label: "forager_storage_unavailable_total", factory: factory).increment() }

  func liveSubscribers(_ count: Int) { Gauge(label: "forager_live_subscribers", factory: factory).record(count) }

  func liveEvent(_ name: LiveEvent.Name) { liveEvents[name]?.increment() }

  func liveRefused(_ code: String) {
    Counter(label: "forager_live_refused_total", dimensions: [("code", code)], factory: factory).increment()
  }

  func database(available: Bool) { Gauge(label: "forager_database_available", factory: factory).record(available ? 1 : 0) }
}
