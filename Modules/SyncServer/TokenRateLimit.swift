import Foundation
import Synchronization

/// Requests per token, limited by a token bucket: a token may make `burst` requests at once
/// and `rate` per second sustained; one past that is `429 rate-limited` with `Retry-After`,
/// the whole seconds until its next request is allowed. One token (a device pushing flat
/// out, or a stolen token) cannot take the server's time from the other households.
///
/// The buckets live in this process: with several server instances a token's limit is
/// per instance.
final class TokenRateLimit: Sendable {
  private struct Bucket {
    var available: Double
    var updated: Date
  }

  let rate: Double
  let burst: Double
  private let buckets = Mutex<[String: Bucket]>([:])
  /// Past this many buckets, the full ones are dropped (a full bucket is what a new one is).
  private let pruneAbove = 10_000

  init(rate: Int, burst: Int) {
    self.rate = Double(max(1, rate))
    self.burst = Double(max(1, burst))
  }

  /// Takes one request from the token's bucket: nil when it may go on, else how many whole
  /// seconds until it may.
  func take(_ token: String, now: Date) -> Int? {
    buckets.withLock { buckets in
      var bucket = buckets[token] ?? Bucket(available: burst, updated: now)
      bucket.available = min(burst, bucket.available + max(0, now.timeIntervalSince(bucket.updated)) * rate)
      bucket.updated = now
      defer {
        buckets[token] = bucket
        if buckets.count > pruneAbove { prune(&buckets, now: now) }
      }
      guard bucket.available >= 1 else { return max(1, Int(((1 - bucket.available) / rate).rounded(.up))) }
      bucket.available -= 1
      return nil
    }
  }

  private func prune(_ buckets: inout [String: Bucket], now: Date) {
    buckets = buckets.filter { $0.value.available + now.timeIntervalSince($0.value.updated) * rate < burst }
  }
}
