public import Foundation

/// A small, fast, seedable random number generator (SplitMix64): the same seed gives the
/// same sequence on every machine, so generated stores, benchmark samples and randomized
/// tests can be reproduced from their seed.
///
/// ```swift
/// var random = SeededGenerator(seed: 42)
/// let pick = ["eggs", "milk", "flour"].randomElement(using: &random)
/// let id = random.uuid()
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A UUID made of the next 128 bits (not a valid version-4 UUID: for test data only).
  public mutating func uuid() -> UUID {
    let a = next(), b = next()
    return withUnsafeBytes(of: (a, b)) { raw in
      let bytes = Array(raw)
      return UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }
}
