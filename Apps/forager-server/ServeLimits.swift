import SyncServer

/// `serve`'s numeric options, each written once: the options are declared on ``Serve`` with
/// this help, and validated, applied and documented from ``all``.
extension ServeLimit {
  static let port = ServeLimit(
    name: "port", option: \.port, setting: .serve, range: 0...65_535, unit: .count, default: .value(8080),
    summary: "The port to listen on.", rangeNote: "0: any free port, printed when listening")
  static let maxBatchBytes = ServeLimit(
    name: "max-batch-bytes", option: \.maxBatchBytes, setting: .int(\.maxBatchBytes), range: 1_024...(64 << 20), unit: .bytes,
    default: .configuration, summary: "The largest push body accepted; it is held in memory while it is checked.")
  static let maxPullLimit = ServeLimit(
    name: "max-pull-limit", option: \.maxPullLimit, setting: .int(\.maxPullLimit), range: 1...10_000, unit: .count,
    default: .configuration, summary: "The largest page a pull may ask for, in batches.")
  static let maxPageBytes = ServeLimit(
    name: "max-page-bytes", option: \.maxPageBytes, setting: .int(\.maxPageBytes), range: (64 << 10)...(256 << 20), unit: .bytes,
    default: .configuration, summary: "The most bytes of batches in one pull page; a page ends early past it.")
  static let snapshotInterval = ServeLimit(
    name: "snapshot-interval", option: \.snapshotInterval, setting: .int(\.snapshotInterval), range: SnapshotMaker.intervals,
    unit: .count, default: .configuration,
    summary: "How many batches a household's log grows by after its last snapshot before a new one is made.")
  static let retention = ServeLimit(
    name: "retention", option: \.retention, setting: .days(\.retention), range: LogCompactor.retentionDays, unit: .days,
    default: .configuration,
    summary: "How long a batch stays in a household's log after it arrived before compaction may drop it.",
    rangeNote: "0: no window, the snapshot and the devices' pulls alone decide",
    discussion: "Each hour, serve drops what every registered device pulled and a kept snapshot holds (Docs/SERVER.md, Compaction).")
  static let heldBatchBytes = ServeLimit(
    name: "held-batch-bytes", option: \.heldBatchBytes, setting: .int(\.heldBatchBytes), range: HeldBatchQuota.bytesRange,
    unit: .bytes, default: .configuration, summary: "The most bytes of newer-schema batches a household may hold unread.")
  static let heldBatchCount = ServeLimit(
    name: "held-batch-count", option: \.heldBatchCount, setting: .int(\.heldBatchCount), range: HeldBatchQuota.countRange,
    unit: .count, default: .configuration, summary: "The most newer-schema batches a household may hold unread.")
  static let householdStoredBytes = ServeLimit(
    name: "household-stored-bytes", option: \.householdStoredBytes, setting: .int64(\.householdQuota.storedBytes),
    range: Int(HouseholdQuota.storedBytesRange.lowerBound)...Int(HouseholdQuota.storedBytesRange.upperBound), unit: .bytes,
    default: .configuration,
    summary: "The most bytes of batches a household's log may hold, unless household-quota gave it its own.")
  static let householdDailyPushBytes = ServeLimit(
    name: "household-daily-push-bytes", option: \.householdDailyPushBytes, setting: .int64(\.householdQuota.dailyPushBytes),
    range: Int(HouseholdQuota.dailyPushBytesRange.lowerBound)...Int(HouseholdQuota.dailyPushBytesRange.upperBound), unit: .bytes,
    default: .configuration, summary: "The most bytes a household's devices may push in a UTC day, unless it has its own.")
  static let allowedSkew = ServeLimit(
    name: "allowed-skew", option: \.allowedSkew, setting: .timeInterval(\.allowedSkew), range: 1...86_400, unit: .seconds,
    default: .configuration, summary: "How far a pushed stamp may lie ahead of this server's clock; later is 'clock-ahead'.")
  static let databaseTimeout = ServeLimit(
    name: "database-timeout", option: \.databaseTimeout, setting: .seconds(\.storageTimeout), range: 1...300, unit: .seconds,
    default: .configuration, summary: "How long a request may wait for the database before it is answered 503 with Retry-After.")
  static let waitForDatabase = ServeLimit(
    name: "wait-for-database", option: \.waitForDatabase, setting: .serve, range: 0...3_600, unit: .seconds, default: .value(60),
    summary: "How long serve waits at start-up for a database it cannot reach.", rangeNote: "0: one attempt")
  static let idleTimeout = ServeLimit(
    name: "idle-timeout", option: \.idleTimeout, setting: .seconds(\.idleTimeout), range: 1...3_600, unit: .seconds,
    default: .configuration, summary: "Close a connection that sends no complete request head, body part or end for this long.")
  static let bodyTimeout = ServeLimit(
    name: "body-timeout", option: \.bodyTimeout, setting: .seconds(\.bodyTimeout), range: 1...3_600, unit: .seconds,
    default: .configuration, summary: "How long reading one request's body may take in all; past it: 408.")
  static let maxConnections = ServeLimit(
    name: "max-connections", option: \.maxConnections, setting: .int(\.maxConnections), range: 1...100_000, unit: .count,
    default: .configuration, summary: "The most connections held open at once; past it, new ones wait to be accepted.")
  static let maxConnectionsPerAddress = ServeLimit(
    name: "max-connections-per-address", option: \.maxConnectionsPerAddress, setting: .optionalInt(\.maxConnectionsPerAddress),
    range: 1...100_000, unit: .count,
    default: .derived("a quarter of --max-connections; none with --trust-forwarded-for") { serve in
      serve.trustForwardedFor
        ? nil : ServerConfiguration.defaultConnectionsPerAddress(maxConnections: maxConnections.value(in: serve) ?? 1)
    },
    summary: "The most connections one client address may hold open; past it, new ones are closed.",
    rangeNote: "at most --max-connections; not with --trust-forwarded-for",
    discussion: "Not with --trust-forwarded-for: every connection then comes from the proxy.")
  static let checkSlots = ServeLimit(
    name: "check-slots", option: \.checkSlots, setting: .int(\.checkSlots), range: 1...256, unit: .count,
    default: .derived("half the cores, at least 1") { _ in ServerConfiguration.defaultCheckSlots },
    summary: "Batch checks (decoding and checking a pushed batch) run at once in this process.")
  static let checksPerHousehold = ServeLimit(
    name: "checks-per-household", option: \.checksPerHousehold, setting: .int(\.checksPerHousehold), range: 1...256, unit: .count,
    default: .configuration,
    summary: "Batch checks of one household run at once; its others wait for a turn, which goes round the households.")
  static let checksPerAddress = ServeLimit(
    name: "checks-per-address", option: \.checksPerAddress, setting: .int(\.checksPerAddress), range: 1...256, unit: .count,
    default: .configuration, summary: "Batch checks of one client address run at once.")
  static let checkQueue = ServeLimit(
    name: "check-queue", option: \.checkQueue, setting: .int(\.checkQueue), range: 0...1_000, unit: .count, default: .configuration,
    summary: "Batch checks of one household, or of one address, that may wait for a turn; past it: 429 check-queue-full.",
    rangeNote: "0: a check without a free turn is refused at once")
  static let checkTimeout = ServeLimit(
    name: "check-timeout", option: \.checkTimeout, setting: .seconds(\.checkTimeout), range: 1...300, unit: .seconds,
    default: .configuration,
    summary: "How long one push's batch checks may take, waiting for turns included; past it: 503 with Retry-After.")
  static let rateLimit = ServeLimit(
    name: "rate-limit", option: \.rateLimit, setting: .int(\.tokenRequestsPerSecond), range: 1...100_000, unit: .requestsPerSecond,
    default: .configuration, summary: "Requests per second one token may make, sustained; past it: 429 with Retry-After.")
  static let rateBurst = ServeLimit(
    name: "rate-burst", option: \.rateBurst, setting: .int(\.tokenBurst), range: 1...100_000, unit: .requests, default: .configuration,
    summary: "Requests one token may make at once before --rate-limit applies.")
  static let addressRateLimit = ServeLimit(
    name: "address-rate-limit", option: \.addressRateLimit, setting: .optionalInt(\.addressRequestsPerSecond), range: 1...100_000,
    unit: .requestsPerSecond, default: .value(ServerConfiguration.defaultAddressRequestsPerSecond),
    summary: "Requests per second one client address may make, sustained, with or without a token; past it: 429.")
  static let addressRateBurst = ServeLimit(
    name: "address-rate-burst", option: \.addressRateBurst, setting: .int(\.addressBurst), range: 1...100_000, unit: .requests,
    default: .configuration, summary: "Requests one client address may make at once before --address-rate-limit applies.")
  static let pushesPerHousehold = ServeLimit(
    name: "pushes-per-household", option: \.pushesPerHousehold, setting: .int(\.pushesPerHousehold), range: 1...100, unit: .count,
    default: .configuration,
    summary: "Pushes of one household sent to the database at once; the others wait in memory, holding no connection.")
  static let liveHeartbeat = ServeLimit(
    name: "live-heartbeat", option: \.liveHeartbeat, setting: .seconds(\.liveHeartbeat), range: 1...300, unit: .seconds,
    default: .configuration, summary: "Time between heartbeats on a quiet live subscription, GET /v1/live.")
  static let liveGapMs = ServeLimit(
    name: "live-gap-ms", option: \.liveGapMs, setting: .milliseconds(\.liveAnnouncementGap), range: 0...1_000, unit: .milliseconds,
    default: .configuration, summary: "Time a live subscription waits between two announcements; closer ones are coalesced.",
    rangeNote: "0: every commit at once",
    discussion: "A household writing faster than this is announced once a gap, with the newest end.")
  static let liveHoldMs = ServeLimit(
    name: "live-hold-ms", option: \.liveHoldMs, setting: .milliseconds(\.liveHoldWhilePushing), range: 0...1_000,
    unit: .milliseconds, default: .configuration,
    summary: "Time a household's announcement may wait for its pushes under way to end.", rangeNote: "0: never held",
    discussion: "Each of them ends the log further: subscribers hear once, when they have all ended or after this long.")
  static let livePerToken = ServeLimit(
    name: "live-per-token", option: \.livePerToken, setting: .int(\.liveSubscribersPerToken), range: 1...100, unit: .count,
    default: .configuration, summary: "The most live subscriptions one token may hold at once; past it: 429 live-token-limit.")
  static let liveSubscribers = ServeLimit(
    name: "live-subscribers", option: \.liveSubscribers, setting: .int(\.liveSubscribers), range: 1...100_000, unit: .count,
    default: .derived("256, or half of --max-connections when that is lower") { serve in
      min(ServerConfiguration().liveSubscribers, max(1, (maxConnections.value(in: serve) ?? 1) / 2))
    },
    summary: "The most live subscriptions this process holds; past it: 503 live-full.", rangeNote: "below --max-connections")
  static let metricsPort = ServeLimit(
    name: "metrics-port", option: \.metricsPort, setting: .serve, range: 0...65_535, unit: .count,
    default: .derived("none: no metrics listener") { _ in nil },
    summary: "Serve Prometheus metrics on GET /metrics of this port.", rangeNote: "0: any free port, printed")

  /// Every numeric option of `serve`, in the order of the doc's table.
  static let all: [ServeLimit] = [
    port, maxBatchBytes, maxPullLimit, maxPageBytes, snapshotInterval, retention, heldBatchBytes, heldBatchCount, householdStoredBytes,
    householdDailyPushBytes,
    allowedSkew, databaseTimeout, waitForDatabase, idleTimeout, bodyTimeout, maxConnections, maxConnectionsPerAddress, checkSlots,
    checksPerHousehold, checksPerAddress, checkQueue, checkTimeout, rateLimit, rateBurst, addressRateLimit, addressRateBurst,
    pushesPerHousehold, liveHeartbeat, liveGapMs, liveHoldMs, livePerToken, liveSubscribers, metricsPort,
  ]
}
