public import Foundation
import Sync

/// The server's limits and clock. Defaults suit a household server; every limit can be set
/// on `forager-server serve`.
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
  /// The newest schema version this server reads: batches of a newer version are stored
  /// and served unchanged without reading past their header (Docs/SERVER.md).
  public var knownSchemaVersion: Int
  /// The most bytes of newer-schema batches a household may hold unread (default 16 MiB;
  /// ``HeldBatchQuota``).
  public var heldBatchBytes: Int
  /// The most newer-schema batches a household may hold unread (default 64).
  public var heldBatchCount: Int
  /// The longest a name (household, device) may be.
  public var maxNameLength: Int
  /// The server's clock (injectable for tests of expiry).
  public var clock: @Sendable () -> Date
  /// How far a pushed stamp may lie ahead of the server's clock, in seconds (default 5
  /// minutes): a batch with a later stamp is refused as `clock-ahead` (Docs/SERVER.md).
  public var allowedSkew: TimeInterval = ChangeRules.defaultAllowedSkew

  public init(
    maxBatchBytes: Int = 4 << 20, maxJSONBytes: Int = 64 << 10, defaultPullLimit: Int = 100, maxPullLimit: Int = 1_000,
    knownSchemaVersion: Int = 3, heldBatchBytes: Int = 16 << 20, heldBatchCount: Int = 64, maxNameLength: Int = 100,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.maxBatchBytes = maxBatchBytes
    self.maxJSONBytes = maxJSONBytes
    self.defaultPullLimit = defaultPullLimit
    self.maxPullLimit = maxPullLimit
    self.knownSchemaVersion = knownSchemaVersion
    self.heldBatchBytes = heldBatchBytes
    self.heldBatchCount = heldBatchCount
    self.maxNameLength = maxNameLength
    self.clock = clock
  }

  /// The quota on held batches every push is decided against.
  public var heldQuota: HeldBatchQuota {
    HeldBatchQuota(knownSchemaVersion: knownSchemaVersion, maxBytes: heldBatchBytes, maxCount: heldBatchCount)
  }
}
