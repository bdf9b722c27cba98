public import Foundation

/// Where new random ids come from: the system's random UUIDs in apps, a seeded sequence in
/// tests and simulations, so that a seed replays byte for byte.
///
/// Ids of unique kinds never come from here: they are name-based (``DeterministicID``).
///
/// ```swift
/// let ids = IDSource.seeded(42)
/// let first = ids.next()   // the same id on every run with seed 42
/// ```
public struct IDSource: Sendable {
  private let make: @Sendable () -> UUID

  /// A source that calls `make` for each id.
  public init(_ make: @escaping @Sendable () -> UUID) { self.make = make }

  /// The next id.
  public func next() -> UUID { make() }

  /// Random version-4 UUIDs from the system's generator (`getrandom` on Linux, two calls
  /// per id). Foundation's `UUID()` opens, reads and closes `/dev/urandom` for every id,
  /// about five times the cost.
  public static let random = IDSource {
    var system = SystemRandomNumberGenerator()
    var halves = (system.next(), system.next())
    return withUnsafeMutableBytes(of: &halves) { raw in
      raw[6] = raw[6] & 0x0F | 0x40  // version 4
      raw[8] = raw[8] & 0x3F | 0x80  // the RFC 4122 variant
      return UUID(uuid: raw.loadUnaligned(as: uuid_t.self))
    }
  }

  /// Ids drawn from a ``SeededGenerator``: the same seed gives the same ids, in order.
  public static func seeded(_ seed: UInt64) -> IDSource {
    let generator = SeededSequence(seed: seed)
    return IDSource { generator.uuid() }
  }
}

/// A seeded generator shared by the closures that draw from it, behind a lock.
private final class SeededSequence: @unchecked Sendable {
  private var generator: SeededGenerator
  private let lock = NSLock()

  init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

  func uuid() -> UUID {
    lock.lock()
    defer { lock.unlock() }
    return generator.uuid()
  }
}
