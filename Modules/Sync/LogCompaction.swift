/// How far a household's log may be compacted: the rule every log that drops batches
/// follows (the server's storage backends, `InMemoryCloud`), in one place
/// (Docs/SERVER.md, "Compaction").
///
/// Batch n may be dropped only when all three hold:
/// 1. n is at or below the position of a snapshot the log keeps, so every dropped batch is
///    folded into a snapshot a device can start from. The floor is itself the position of a
///    kept snapshot, which stays: it holds exactly the dropped batches (a restore starts from
///    it);
/// 2. every device that holds compaction back (it has synced and can still sync) has
///    pulled past n, so none needs n to catch up;
/// 3. n, and every batch before it, arrived before the retention window.
///
/// The floor is the highest kept snapshot's position that all three allow; batches up to it
/// go, the ones after it stay. A device
/// behind the floor gets ``CloudError/compacted(location:cursor:firstKept:)`` and starts
/// again from the snapshot, joining it into the states it holds (the join is commutative,
/// so its own writes not yet pushed stay).
///
/// ```swift
/// let floor = LogCompaction.floor(LogCompaction.Input(
///   compactedThrough: 0, snapshotPositions: [600, 900], devices: [.init(name: "phone", pulledThrough: 950)],
///   firstRetained: 920))
/// // floor.through == 900, floor.limit == .snapshot
/// ```
public enum LogCompaction {
  /// A device that holds compaction back, and how far it has pulled.
  public struct Device: Sendable, Hashable {
    /// Its name, for messages.
    public let name: String
    /// The highest position it has shown it holds everything up to (a pull after it).
    public let pulledThrough: Int64

    /// A device from its parts.
    public init(name: String, pulledThrough: Int64) {
      self.name = name
      self.pulledThrough = pulledThrough
    }
  }

  /// What the rule reads of a household's log.
  public struct Input: Sendable, Hashable {
    /// The log's current floor: batches up to it are gone already (0: none).
    public let compactedThrough: Int64
    /// The positions of the snapshots the log keeps.
    public let snapshotPositions: [Int64]
    /// The devices that hold compaction back.
    public let devices: [Device]
    /// The first batch still inside the retention window (it arrived at or after the
    /// window's start); nil when every batch is older.
    public let firstRetained: Int64?

    /// An input from its parts.
    public init(compactedThrough: Int64, snapshotPositions: [Int64], devices: [Device], firstRetained: Int64?) {
      self.compactedThrough = compactedThrough
      self.snapshotPositions = snapshotPositions
      self.devices = devices
      self.firstRetained = firstRetained
    }
  }

  /// Which condition set the floor.
  public enum Limit: Sendable, Hashable, CustomStringConvertible {
    /// No kept snapshot lies higher within the other bounds (condition 1).
    case snapshot
    /// A device's pulled position (condition 2).
    case device(String)
    /// The retention window (condition 3).
    case retention

    /// The condition in words.
    public var description: String {
      switch self {
      case .snapshot: "the kept snapshots' positions"
      case .device(let name): "device '\(name)', which has pulled only that far"
      case .retention: "the retention window"
      }
    }
  }

  /// Where the rule puts the floor.
  public struct Floor: Sendable, Hashable {
    /// Batches up to this position may be dropped; never below the current floor.
    public let through: Int64
    /// The condition that set it.
    public let limit: Limit
  }

  /// How far conditions 2 and 3 let the floor go, and which one stops it (nil: neither).
  public static func bound(_ input: Input) -> (through: Int64, limit: Limit?) {
    var bound: (through: Int64, limit: Limit?) = (.max, nil)
    for device in input.devices.sorted(by: { $0.name < $1.name }) where device.pulledThrough < bound.through {
      bound = (device.pulledThrough, .device(device.name))
    }
    if let first = input.firstRetained, first - 1 < bound.through { bound = (first - 1, .retention) }
    return bound
  }

  /// The highest kept snapshot's position every batch up to which the three conditions let
  /// go; the current floor when there is none above it.
  public static func floor(_ input: Input) -> Floor {
    let bound = bound(input)
    let snapshot = input.snapshotPositions.filter { $0 <= bound.through }.max() ?? 0
    guard snapshot > input.compactedThrough else {
      return Floor(through: input.compactedThrough, limit: bound.limit ?? .snapshot)
    }
    return Floor(through: snapshot, limit: snapshot == bound.through ? bound.limit ?? .snapshot : .snapshot)
  }
}
