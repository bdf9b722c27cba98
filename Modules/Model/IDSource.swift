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

  /// Random version-4 UUIDs from the system.
  public static let random = IDSource { UUID() }

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
