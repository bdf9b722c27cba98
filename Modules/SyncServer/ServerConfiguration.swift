public import Foundation
import Sync

/// The server's limits and clock. Defaults suit a household server; every limit can be set
/// on `forager-server serve`, whose table of options states the values each may take.
public struct ServerConfiguration: Sendable {
  /// The largest push body accepted, in bytes (default 4 MiB: a batch of 500 records, the
  /// engine's default push size, is well under 1 MiB).
  public var maxBatchBytes: Int
  /// The largest JSON body accepted (device registration), in bytes.
  public var maxJSONBytes: Int
  /// The page size of a pull that names none.
  public var defaultPullLimit: Int
  /// The largest page a pull may ask for.
  public var maxPullLimit: Int
  /// The most bytes of batches in one pull page (default 8 MiB): a page ends early, saying
  /// so, when its next batch would pass it; a page's first batch is sent however large.
  public var maxPageBytes: Int = 8 << 20
  /// How many batches the log grows by after a household's last snapshot before a request
  /// for it makes a new one (default 1,000; ``SnapshotMaker``). A household whose log is
  /// shorter has none: its devices pull the whole log.
  public var snapshotInterval: Int = SnapshotMaker.defaultInterval
  /// The most records in one page of a snapshot (default 2,000; at most 10,000, a batch's most).
  public var snapshotPageRecords: Int = SnapshotMaker.defaultPageRecords
  /// How long a batch is kept after it arrived before compaction may drop it, in seconds
  /// (default 7 days; 0: no window, conditions 1 and 2 alone decide). Docs/SERVER.md, "Compaction".
  public var retention: TimeInterval = LogCompactor.defaultRetention
  /// How often `serve` makes each household's due snapshot and compacts its log (default 1 hour).
  public var compactionInterval: Duration = .seconds(3_600)
  /// The newest schema version this server reads: batches of a newer version are stored
  /// and served unchanged without reading past their header (Docs/SERVER.md).
  public var knownSchemaVersion: Int
  /// The most bytes of newer-schema batches a household may hold unread (default 16 MiB;
  /// ``HeldBatchQuota``).
  public var heldBatchBytes: Int
  /// The most newer-schema batches a household may hold unread (default 64).
  public var heldBatchCount: Int
  /// Every household's quota unless the operator set its own (``HouseholdQuota``; default
  /// 4 GiB stored, 1 GiB pushed a day).
  public var householdQuota = HouseholdQuota()
  /// The longest a name (household, device) may be.
  public var maxNameLength: Int
  /// The server's clock (injectable for tests of expiry).
  public var clock: @Sendable () -> Date
  /// How far a pushed stamp may lie ahead of the server's clock, in seconds (default 10 s:
  /// devices stamp on the server's clock, which every answer carries): a batch with a later
  /// stamp is refused as `clock-ahead` (Docs/SERVER.md).
  public var allowedSkew: TimeInterval = ChangeRules.defaultAllowedSkew
  /// How long a request's storage call may take before the request is answered
  /// `503 storage-unavailable` (``StorageGate``); a push waiting for its household's lock
  /// waits within it.
  public var storageTimeout: Duration = .seconds(10)
  /// How long `/v1/ready`, and a request arriving while the storage is down, wait for the
  /// storage to answer a check.
  public var readinessTimeout: Duration = .seconds(2)
  /// The `Retry-After` of a `503 storage-unavailable`, in seconds.
  public var unavailableRetryAfter = 2
  /// How long a connection may pass without a complete request head, body part or end
  /// from its client: a keep-alive connection left idle, a head never finished and a body
  /// that stalls are closed after it (Hummingbird's `idleTimeout`).
  public var idleTimeout: Duration = .seconds(30)
  /// How long reading one request's body may take in all: past it the request is
  /// `408 body-timeout` (a client trickling its body keeps the idle timer from firing).
  public var bodyTimeout: Duration = .seconds(60)
  /// The most connections the server holds open at once; past it, it accepts no more
  /// until one closes (Hummingbird's `MaximumAvailableConnections`).
  public var maxConnections = 512
  /// The most connections one client address may hold open at once (``ClientAddress``, by the
  /// connection's peer); a new connection past it is closed as soon as it is accepted, so a
  /// client topping its connections up to ``maxConnections`` leaves room for the others. nil:
  /// not limited. `forager-server serve` sets ``defaultConnectionsPerAddress(maxConnections:)``
  /// unless it trusts `X-Forwarded-For` (then every connection is the proxy's); an embedded
  /// service (tests, the load bench, whose devices share 127.0.0.1) sets it when it wants it.
  public var maxConnectionsPerAddress: Int?
  /// `forager-server serve`'s connections per address: a quarter of `maxConnections` (at
  /// least one), so it takes four addresses to fill the server, while the devices of
  /// households behind one NAT address still hold a hundred connections at the default 512.
  public static func defaultConnectionsPerAddress(maxConnections: Int) -> Int { max(1, maxConnections / 4) }
  /// How many pushes of one household go to the storage at once in this process; the
  /// others wait in memory, holding no database connection (``HouseholdPushQueue``).
  public var pushesPerHousehold = 2
  /// How many batch checks — decoding a pushed batch and checking its changes against
  /// `ChangeRules`, the CPU-heavy part of a push — run at once in this process (``CheckTurns``):
  /// by default half the cores, at least one, so that checks never take every thread the
  /// other requests run on.
  public var checkSlots = ServerConfiguration.defaultCheckSlots
  /// Half the cores this process may use, at least one.
  public static var defaultCheckSlots: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }
  /// How many checks of one household run at once; the household's others wait for a turn,
  /// which goes round the households that wait.
  public var checksPerHousehold = 1
  /// How many checks of one client address run at once (several households may share a NAT
  /// address).
  public var checksPerAddress = 2
  /// How many checks of one household, and of one address, may wait for a turn; one more is
  /// `429 check-queue-full` with `Retry-After`, refused before it waits (each waiting check
  /// holds its body in memory).
  public var checkQueue = 8
  /// How long the checks of one push may take, waiting for turns included: a check that has
  /// not had its first turn by then is `503 checks-busy`, one that has not finished is
  /// abandoned between two changes and answered `503 check-timeout`, both with `Retry-After`.
  public var checkTimeout: Duration = .seconds(5)
  /// How many requests one token may make per second, sustained (``RequestRateLimit``).
  public var tokenRequestsPerSecond = 20
  /// How many requests one token may make at once before the sustained rate applies.
  public var tokenBurst = 100
  /// How many requests one client address may make per second, sustained, whatever their
  /// token — none, a bad one or several good ones (``ClientAddress``); nil: addresses are not
  /// limited. `forager-server serve` sets ``defaultAddressRequestsPerSecond``; an embedded
  /// service (tests, the load bench, whose many devices share 127.0.0.1) sets it when it wants it.
  public var addressRequestsPerSecond: Int?
  /// `forager-server serve`'s address rate: ten times the per-token rate, since a
  /// household's devices, or several households, may share one NAT address.
  public static let defaultAddressRequestsPerSecond = 200
  /// How many requests one client address may make at once before its sustained rate applies.
  public var addressBurst = 1_000
  /// The most client addresses whose buckets are kept at once (about 100 bytes each); past
  /// it the full and then the least recently used are dropped (``RequestRateLimit``).
  public var addressBuckets = 100_000
  /// Whether the client's address is the last hop of `X-Forwarded-For` (set by a proxy in
  /// front of the server) rather than the connection's peer. Only for a server that nothing
  /// but the proxy can reach: otherwise a client names any address it likes.
  public var trustForwardedFor = false
  /// How often a live subscription hears a heartbeat when nothing was pushed (``LiveEvent``).
  /// A heartbeat keeps proxies from closing the stream and lets a device notice a dead
  /// channel; a write a subscriber does not take within ``idleTimeout`` ends its stream.
  public var liveHeartbeat: Duration = .seconds(15)
  /// The shortest time between two announcements on one live stream. Announcements that
  /// come closer are coalesced: the stream waits out the gap and sends the newest end, so
  /// a household writing faster than this costs the server, and its phones' pulls, at most
  /// one announcement a gap per subscriber. A change after a quiet gap goes out at once;
  /// one in a busy household waits at most the gap. Zero: every announcement at once.
  public var liveAnnouncementGap: Duration = .milliseconds(25)
  /// The longest a household's announcement waits for its pushes under way in this process
  /// to end (``LiveAnnouncer/duringPush(of:_:)``): each would end the log further, and
  /// telling the subscribers before it commits makes each of their phones pull twice. A
  /// lone push is announced as it commits; a household whose devices push at once, one
  /// after another, is announced when they have all ended or once this long. Zero: never held.
  public var liveHoldWhilePushing: Duration = .milliseconds(100)
  /// The most live subscriptions one token may hold at once (``LiveAnnouncer``).
  public var liveSubscribersPerToken = 2
  /// The most live subscriptions this process holds at once. Each holds a connection, so it
  /// must stay below ``maxConnections`` (the rest are left for requests).
  public var liveSubscribers = 256

  public init(
    maxBatchBytes: Int = 4 << 20, maxJSONBytes: Int = 64 << 10, defaultPullLimit: Int = 100, maxPullLimit: Int = 1_000,
    knownSchemaVersion: Int? = nil, heldBatchBytes: Int = 16 << 20, heldBatchCount: Int = 64, maxNameLength: Int = 100,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.maxBatchBytes = maxBatchBytes
    self.maxJSONBytes = maxJSONBytes
    self.defaultPullLimit = defaultPullLimit
    self.maxPullLimit = maxPullLimit
    self.knownSchemaVersion = knownSchemaVersion ?? ChangeBatchCoding.schemaVersion
    self.heldBatchBytes = heldBatchBytes
    self.heldBatchCount = heldBatchCount
    self.maxNameLength = maxNameLength
    self.clock = clock
  }

  /// The quotas every push is decided against: the held batches' and the household's.
  public var heldQuota: HeldBatchQuota {
    var quota = HeldBatchQuota(knownSchemaVersion: knownSchemaVersion, maxBytes: heldBatchBytes, maxCount: heldBatchCount)
    quota.household = householdQuota
    return quota
  }
}
