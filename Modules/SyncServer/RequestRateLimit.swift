package import Foundation
import Synchronization

/// Requests per key — a token, or a client's address — limited by a token bucket per key: a
/// key may make `burst` requests at once and `rate` per second sustained; one past that is
/// `429 rate-limited` with `Retry-After`, the whole seconds until its next request is
/// allowed. The server keeps two: one per token (a device pushing flat out, or a stolen
/// token, cannot take the server's time from other households) and one per client address
/// (a flood of bad tokens or unauthenticated requests is limited before any token is read).
///
/// The table holds at most `capacity` buckets, so a client cycling through keys (addresses,
/// made-up tokens) cannot grow it without bound: past it, the full buckets are dropped first
/// (a full bucket is what a new one would be), then the least recently used, until a quarter
/// of the room is free again. A dropped bucket that was not full starts full next time — the
/// price of a bounded table.
///
/// The buckets live in this process: with several server instances each keeps its own, so a
/// client reaching all of them is limited to the rate times the number of instances.
package final class RequestRateLimit: Sendable {
  private struct Bucket {
    var available: Double
    var updated: Date
  }

  let rate: Double
  let burst: Double
  /// The most buckets held at once.
  package let capacity: Int
  private let buckets = Mutex<[String: Bucket]>([:])

  package init(rate: Int, burst: Int, capacity: Int = 10_000) {
    self.rate = Double(max(1, rate))
    self.burst = Double(max(1, burst))
    self.capacity = max(1, capacity)
  }

  /// How many buckets the table holds now.
  package var count: Int { buckets.withLock { $0.count } }

  /// Takes one request from the key's bucket: nil when it may go on, else how many whole
  /// seconds until it may.
  package func take(_ key: String, now: Date) -> Int? {
    buckets.withLock { buckets in
      var bucket = buckets[key] ?? Bucket(available: burst, updated: now)
      bucket.available = min(burst, bucket.available + max(0, now.timeIntervalSince(bucket.updated)) * rate)
      bucket.updated = now
      defer {
        buckets[key] = bucket
        if buckets.count > capacity { prune(&buckets, now: now, keeping: key) }
      }
      guard bucket.available >= 1 else { return max(1, Int(((1 - bucket.available) / rate).rounded(.up))) }
      bucket.available -= 1
      return nil
    }
  }

  /// Drops full buckets, then the least recently used, until at most three quarters of
  /// ``capacity`` remain (so that pruning, which reads the whole table, runs once per
  /// quarter of the capacity's new keys at most).
  /// The bucket just taken from is kept.
  private func prune(_ buckets: inout [String: Bucket], now: Date, keeping kept: String) {
    let target = max(1, capacity - capacity / 4)
    buckets = buckets.filter { $0.key == kept || $0.value.available + now.timeIntervalSince($0.value.updated) * rate < burst }
    guard buckets.count > target else { return }
    let oldest = buckets.filter { $0.key != kept }.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count - target)
    for (key, _) in oldest { buckets[key] = nil }
  }
}
