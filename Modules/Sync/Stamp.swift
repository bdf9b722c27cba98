import Foundation

/// The version of one field write: a hybrid logical clock reading and the replica that
/// wrote it. Stamps are totally ordered (time, then counter, then replica), so "highest
/// stamp wins" picks the same value on every replica whatever the arrival order.
public struct Stamp: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// Milliseconds since 1970 (physical part of the hybrid clock).
  public let time: Int64
  /// Logical counter for writes within one millisecond or behind a faster clock.
  public let counter: Int32
  /// The replica that wrote the value.
  public let replica: String

  public init(time: Int64, counter: Int32, replica: String) {
    self.time = time
    self.counter = counter
    self.replica = replica
  }

  public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
    (lhs.time, lhs.counter, lhs.replica) < (rhs.time, rhs.counter, rhs.replica)
  }

  public var description: String { "\(time).\(counter)@\(replica.prefix(8))" }
}

/// A hybrid logical clock (Kulkarni et al.): never runs backwards, stays close to
/// physical time, and moves past every stamp it has seen.
struct HybridLogicalClock: Sendable, Hashable {
  var time: Int64 = 0
  var counter: Int32 = 0

  /// The reading for a local write that happened at physical time `physical` (ms).
  mutating func tick(physical: Int64) -> (time: Int64, counter: Int32) {
    if physical > time {
      time = physical
      counter = 0
    } else {
      counter += 1
    }
    return (time, counter)
  }

  /// Moves past a stamp received from another replica.
  mutating func receive(_ stamp: Stamp) {
    if stamp.time > time || (stamp.time == time && stamp.counter > counter) {
      time = stamp.time
      counter = stamp.counter
    }
  }

  var encoded: String { "\(time):\(counter)" }

  init() {}

  init?(encoded: String) {
    let parts = encoded.split(separator: ":")
    guard parts.count == 2, let time = Int64(parts[0]), let counter = Int32(parts[1]) else { return nil }
    self.time = time
    self.counter = counter
  }
}

extension Date {
  /// Milliseconds since 1970, the physical part of stamps.
  var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
