import Foundation
import Model

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

  /// A stamp from its parts.
  public init(time: Int64, counter: Int32, replica: String) {
    self.time = time
    self.counter = counter
    self.replica = replica
  }

  /// Orders stamps by time, then counter, then replica: a total order every device agrees on.
  public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
    (lhs.time, lhs.counter, lhs.replica) < (rhs.time, rhs.counter, rhs.replica)
  }

  /// "time.counter@replica", with the replica cut to 8 characters.
  public var description: String { "\(time).\(counter)@\(replica.prefix(8))" }

  /// The largest counter a stamp may carry: far above what a device writes within one
  /// millisecond, far below where adding to it could overflow. A clock whose counter
  /// reaches it moves on to the next millisecond.
  public static let maximumCounter: Int32 = 1 << 30

  /// The earliest time a device's stamp may carry, in milliseconds since 1970: the creation
  /// stamp (``creationBand`` below real time) of a write made on 1 January 1900, the earliest
  /// date a record may hold. Only a migration's fixed stamps, which carry no replica, lie
  /// below it. A stamp of −2⁶³ or near it would otherwise make every date computed from it
  /// overflow.
  public static let earliestTime: Int64 = Int64(ValueRules.dateRange.lowerBound) * 1000 - creationBand

  /// How far below real time creation stamps lie: 2⁵⁰ ms, about 35,000 years.
  public static let creationBand: Int64 = 1 << 50
}

/// A hybrid logical clock (Kulkarni et al.): never runs backwards, stays close to
/// physical time, and moves past every stamp it has seen — but never past its own
/// physical time plus the allowed skew, and its counter never overflows: a stamp another
/// device sent cannot make this one trap or stamp its writes in the far future.
struct HybridLogicalClock: Sendable, Hashable {
  var time: Int64 = 0
  var counter: Int32 = 0

  /// The reading for a local write that happened at physical time `physical` (ms). A
  /// counter at ``Stamp/maximumCounter`` moves the time on by a millisecond instead.
  mutating func tick(physical: Int64) -> (time: Int64, counter: Int32) {
    if physical > time {
      time = physical
      counter = 0
    } else if counter >= Stamp.maximumCounter || counter < 0 {
      // Saturating: a clock already at the end of time (a store an earlier version let a
      // hostile stamp into) stays there instead of trapping.
      time = time == .max ? time : time + 1
      counter = 0
    } else {
      counter += 1
    }
    return (time, counter)
  }

  /// Moves past a stamp received from another replica, unless the stamp lies past
  /// `limit` (this device's physical time plus the allowed skew, in ms): such a stamp is
  /// set aside before it is joined (`ChangeRules`), and the clock does not follow it.
  mutating func receive(_ stamp: Stamp, limit: Int64) {
    guard stamp.time <= limit, (0...Stamp.maximumCounter).contains(stamp.counter) else { return }
    if stamp.time > time || (stamp.time == time && stamp.counter > counter) {
      time = stamp.time
      counter = stamp.counter
    }
  }

  /// A clock read back from a store, pulled back to `now` (physical time, ms) when it lies
  /// beyond `limit` (physical time plus the allowed skew): an earlier version followed any
  /// stamp it received, and a device's clock may have run ahead and been set right since. A
  /// clock left in the future would stamp every later write so that the server refuses it.
  func bounded(by limit: Int64, now: Int64) -> HybridLogicalClock {
    guard time > limit || counter > Stamp.maximumCounter || counter < 0 else { return self }
    var clock = self
    if time > limit { clock.time = min(now, limit) }
    clock.counter = 0
    return clock
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
