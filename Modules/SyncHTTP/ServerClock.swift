import Foundation
import Synchronization

/// The server's clock as the answers of one ``HTTPCloud`` tell it: each answer carries
/// the server's time (`Forager-Time`), and the time since is measured on this process's
/// monotonic clock, so the reading holds whatever this device's wall clock says.
///
/// An answer's time is taken as the server's time halfway between the request leaving and
/// the answer arriving, so it is off by at most half the round trip — at most a second, as
/// answers slower than ``longestRoundTrip`` are not read — well inside the allowed skew.
final class ServerClock: Sendable {
  private struct Reading {
    /// The server's time in the answer, in ms since 1970.
    var server: Int64
    /// When the answer arrived, on the monotonic clock.
    var arrived: ContinuousClock.Instant
  }

  private let reading = Mutex<Reading?>(nil)

  /// The longest round trip whose answer is read: the server wrote its time somewhere
  /// between the request leaving and the whole answer arriving, so a reading is taken at
  /// the middle of the two and is off by at most half the round trip. A slow answer (a
  /// large page on a loaded machine) would otherwise read the server's clock seconds behind.
  static let longestRoundTrip: Duration = .seconds(2)

  /// Notes the `Forager-Time` value of an answer to a request sent at `sent` that arrived
  /// at `arrived`; a value that is not whole milliseconds between 1900 and 9999, or an
  /// answer whose round trip took longer than ``longestRoundTrip``, is ignored.
  func note(_ header: String?, sent: ContinuousClock.Instant, arrived: ContinuousClock.Instant) {
    guard let header, let server = Int64(header), (-2_208_988_800_000...253_402_300_799_999).contains(server) else { return }
    let roundTrip = arrived - sent
    guard roundTrip >= .zero, roundTrip <= Self.longestRoundTrip else { return }
    let arrived = sent + roundTrip / 2
    reading.withLock { reading in
      // Answers of requests sent at once may arrive in any order: keep the latest arrival.
      if let known = reading, known.arrived > arrived { return }
      reading = Reading(server: server, arrived: arrived)
    }
  }

  /// The server's time now, from an answer that arrived within `maxAge`; nil when none did.
  func now(maxAge: Duration) -> Date? {
    guard let known = reading.withLock({ $0 }) else { return nil }
    let age = ContinuousClock.now - known.arrived
    guard age <= maxAge else { return nil }
    let seconds = Double(known.server) / 1000 + Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
    return Date(timeIntervalSince1970: seconds)
  }
}
