import Foundation

/// Monotonic nanoseconds (CLOCK_MONOTONIC through Dispatch: with ZIPFoundation's zlib module
/// in the build, `timespec` resolves to a different module from one build to the next).
@inline(__always)
func nanoseconds() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}

/// Seconds `body` takes.
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> Double {
  let start = nanoseconds()
  try body()
  return Double(nanoseconds() - start) / 1e9
}

/// Summary of repeated timings, in seconds: the median and the spread (fastest and
/// slowest sample); a 99th percentile only from 100 samples or more, where it means one.
struct Stats: Codable, Sendable {
  /// The fewest samples a 99th percentile is reported from.
  static let samplesForP99 = 100

  var count: Int
  var median: Double
  var p99: Double?
  var min: Double
  var max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    count = sorted.count
    func quantile(_ q: Double) -> Double {
      guard !sorted.isEmpty else { return .nan }
      let rank = q * Double(sorted.count - 1)
      let low = Int(rank.rounded(.down)), high = Swift.min(low + 1, sorted.count - 1)
      return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
    median = quantile(0.5)
    p99 = count >= Self.samplesForP99 ? quantile(0.99) : nil
    min = sorted.first ?? .nan
    max = sorted.last ?? .nan
  }
}

/// The machine's load: the 1-minute load average, read from `/proc/loadavg`.
enum Load {
  static func oneMinute() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
      let first = text.split(separator: " ").first, let value = Double(first)
    else { return .nan }
    return value
  }
}

enum Memory {
  /// The process's peak resident set so far (VmHWM), in MiB.
  static func peakResidentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.split(separator: " ").compactMap { Double($0) }
      if let kib = digits.first { return kib / 1024 }
    }
    return .nan
  }
}

/// The calling thread's CPU time, in seconds, to the nanosecond the scheduler counts
/// (`CLOCK_THREAD_CPUTIME_ID`; `getrusage` splits it by 4 ms ticks, too coarse for one
/// write): what a step cost the thread that ran it, without the time other threads held
/// the cores.
func threadCPUSeconds() -> Double {
  // `timespec` is two machine words on 64-bit Linux, seconds then nanoseconds; read as such,
  // because which module's `timespec` the name resolves to changes between builds.
  withUnsafeTemporaryAllocation(of: Int.self, capacity: 2) { words in
    words.initialize(repeating: 0)
    guard let base = words.baseAddress else { return 0 }
    _ = base.withMemoryRebound(to: timespec.self, capacity: 1) { clock_gettime(CLOCK_THREAD_CPUTIME_ID, $0) }
    return Double(words[0]) + Double(words[1]) / 1e9
  }
}
