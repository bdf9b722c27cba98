public import Foundation
public import Logging
public import ServiceLifecycle

/// Compacts households' logs (Docs/SERVER.md, "Compaction"): makes a household's snapshot
/// when it is due (``SnapshotMaker/current(of:now:)``) and one where the floor may reach,
/// then drops what `LogCompaction` lets go, through the storage's ``HouseholdAdministration/compactLog(of:retainedFrom:dryRun:now:)``.
/// `forager-server compact-household` runs it for one household, and `serve` for every
/// household each ``ServerConfiguration/compactionInterval`` (``run()``).
///
/// ```swift
/// let compactor = LogCompactor(storage: storage, configuration: configuration)
/// let done = try await compactor.compact(household, dryRun: true)
/// print(done.floor, done.batches)
/// ```
public struct LogCompactor: Service {
  /// How long a batch is kept after it arrived, by default: 7 days.
  public static let defaultRetention: TimeInterval = 7 * 86_400
  /// The retention's bounds, in days: 0 (no window) to 3,650.
  public static let retentionDays = 0...3_650

  /// The storage whose households it compacts.
  public let storage: any HouseholdStorage & SnapshotStore
  /// The retention, snapshot interval, clock and cadence it runs with.
  public let configuration: ServerConfiguration
  let logger: Logger

  /// A compactor of `storage`'s households; `logger` hears what ``compactAll()`` dropped.
  public init(storage: any HouseholdStorage & SnapshotStore, configuration: ServerConfiguration, logger: Logger? = nil) {
    self.storage = storage
    self.configuration = configuration
    self.logger = logger ?? Logger(label: "forager-server.compaction")
  }

  /// Makes the household's snapshot when it is due and one where compaction may reach (not
  /// in a dry run: the floor is always a kept snapshot's position), then compacts its log
  /// with the configuration's ``ServerConfiguration/retention``.
  public func compact(_ household: Int64, dryRun: Bool) async throws -> HouseholdCompaction {
    let now = configuration.clock()
    let retainedFrom = now.addingTimeInterval(-max(0, configuration.retention))
    let planned = try await storage.compactLog(
      of: household, retainedFrom: retainedFrom, assumingSnapshotAt: nil, dryRun: true, now: now)
    let reach = min(planned.reach, try await storage.latestSequence(of: household))
    guard !dryRun else {
      guard reach > planned.floor else { return planned }
      return try await storage.compactLog(of: household, retainedFrom: retainedFrom, assumingSnapshotAt: reach, dryRun: true, now: now)
    }
    let maker = SnapshotMaker(storage: storage, configuration: configuration)
    _ = try await maker.current(of: household, now: now)
    if reach > planned.floor, try await !storage.snapshots(of: household).contains(where: { $0.position == reach }) {
      _ = try await maker.make(of: household, now: now, through: reach)
    }
    return try await storage.compactLog(of: household, retainedFrom: retainedFrom, assumingSnapshotAt: nil, dryRun: false, now: now)
  }

  /// Compacts every household, logging what each dropped and any failure (one household's
  /// failure does not stop the others).
  public func compactAll() async {
    let households: [HouseholdSummary]
    do {
      households = try await storage.householdSummaries(now: configuration.clock())
    } catch {
      logger.warning("compaction: cannot list the households: \(error)")
      return
    }
    for summary in households {
      do {
        guard let household = try await storage.household(named: summary.name) else { continue }
        let done = try await compact(household.id, dryRun: false)
        if done.batches > 0 {
          logger.info(
            "compaction: household '\(summary.name)' dropped \(done.batches) batches (\(done.bytes) bytes) up to \(done.floor)")
        }
      } catch {
        logger.warning("compaction: household '\(summary.name)': \(error)")
      }
    }
  }

  /// Compacts every household each ``ServerConfiguration/compactionInterval`` until the
  /// service group shuts down.
  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        while true {
          try await Task.sleep(for: configuration.compactionInterval)
          await compactAll()
        }
      }
    } catch is CancellationError {}
  }
}
