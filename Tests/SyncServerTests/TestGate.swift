import Foundation

/// A gate that opens once: ``wait()`` returns at once when it is open, and otherwise when
/// ``open()`` is called. A test storage holds an append at it as long as a test needs.
final class TestGate: @unchecked Sendable {
  private let lock = NSLock()
  private var opened = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let go = lock.withLock { () -> Bool in
        if opened { return true }
        waiting.append(continuation)
        return false
      }
      if go { continuation.resume() }
    }
  }

  func open() {
    let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      opened = true
      defer { waiting = [] }
      return waiting
    }
    for continuation in resumed { continuation.resume() }
  }
}
