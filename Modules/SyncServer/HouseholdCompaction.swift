import Sync

/// What compacting a household's log dropped, or would drop in a dry run
/// (``HouseholdAdministration/compactLog(of:retainedFrom:dryRun:now:)``; Docs/SERVER.md,
/// "Compaction").
public struct HouseholdCompaction: Sendable, Hashable {
  /// The log's floor before: batches up to it were gone already.
  public let previousFloor: Int64
  /// The floor after (in a dry run, the floor it would set): batches up to it are gone.
  public let floor: Int64
  /// The condition that set the floor, in words (`LogCompaction.Limit`).
  public let limit: String
  /// How far the devices' pulls and the retention window alone let the floor go (`Int64.max`:
  /// no bound); ``LogCompactor`` makes a snapshot there, so the next floor can reach it.
  public let reach: Int64
  /// How many batches it dropped.
  public let batches: Int
  /// Their bytes, as stored.
  public let bytes: Int64
  /// The positions of the snapshots it dropped: those below the new floor.
  public let snapshots: [Int64]
  /// Whether it only said what it would drop.
  public let dryRun: Bool

  /// A compaction's outcome from its parts (the storage backends make it).
  public init(
    previousFloor: Int64, floor: Int64, limit: String, reach: Int64, batches: Int, bytes: Int64, snapshots: [Int64], dryRun: Bool
  ) {
    self.reach = reach
    self.previousFloor = previousFloor
    self.floor = floor
    self.limit = limit
    self.batches = batches
    self.bytes = bytes
    self.snapshots = snapshots
    self.dryRun = dryRun
  }

  /// A device that holds compaction back, and the highest place a pull of it started after.
  public struct Device: Sendable, Hashable {
    /// The device's name, for the floor's reason.
    public let name: String
    /// The highest place a pull of it started after.
    public let pulledThrough: Int64

    /// A device from its parts.
    public init(name: String, pulledThrough: Int64) {
      self.name = name
      self.pulledThrough = pulledThrough
    }
  }

  /// Where `LogCompaction` puts the household's floor, the condition that set it in words,
  /// and how far conditions 2 and 3 alone reach.
  /// - Parameters:
  ///   - previousFloor: the log's floor now.
  ///   - snapshotPositions: the kept snapshots' positions.
  ///   - devices: the devices that hold compaction back (``holdsBack(synced:liveToken:)``).
  ///   - firstRetained: the first kept batch that arrived inside the retention window; nil: none.
  public static func floor(previousFloor: Int64, snapshotPositions: [Int64], devices: [Device], firstRetained: Int64?) -> (
    through: Int64, limit: String, reach: Int64
  ) {
    let input = LogCompaction.Input(
      compactedThrough: previousFloor, snapshotPositions: snapshotPositions,
      devices: devices.map { LogCompaction.Device(name: $0.name, pulledThrough: $0.pulledThrough) }, firstRetained: firstRetained)
    let floor = LogCompaction.floor(input)
    return (floor.through, floor.limit.description, LogCompaction.bound(input).through)
  }

  /// Whether a device holds compaction back: it has synced (pushed, registered or pulled)
  /// and holds a token that is neither revoked nor expired. A device without one cannot
  /// pull; given a new token, it starts again from the snapshot.
  public static func holdsBack(synced: Bool, liveToken: Bool) -> Bool { synced && liveToken }
}
