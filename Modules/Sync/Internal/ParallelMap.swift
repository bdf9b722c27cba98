import Dispatch
import Foundation

extension Array where Element: Sendable {
  /// `transform` of each element, in order, computed on every core when there are at
  /// least `minimumCount` elements (fewer are not worth a thread's start). `transform` must
  /// be a pure function of its element: the result is the same however the work is split.
  func parallelMap<Result>(minimumCount: Int = 256, _ transform: @Sendable (Element) -> Result) -> [Result] {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    guard count >= minimumCount, cores > 1 else { return map(transform) }
    let chunks = Swift.min(cores, count / (minimumCount / 2))
    let chunkSize = (count + chunks - 1) / chunks
    return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let start = buffer.baseAddress else { return }
      nonisolated(unsafe) let output = start
      self.withUnsafeBufferPointer { input in
        nonisolated(unsafe) let input = input
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          let end = Swift.min(count, (chunk + 1) * chunkSize)
          for index in (chunk * chunkSize)..<end { (output + index).initialize(to: transform(input[index])) }
        }
      }
      initialized = count
    }
  }
}
