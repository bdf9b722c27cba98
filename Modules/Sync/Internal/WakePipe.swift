#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// A pipe whose read end is readable while something wants the waiting thread awake:
/// another thread calls ``signal()``, the waiter polls ``descriptor`` (alone or beside its
/// terminal) and calls ``drain()``. Non-blocking on both ends; closed when released.
final class WakePipe: Sendable {
  let descriptor: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    descriptor = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if writeEnd >= 0 { close(writeEnd) }
  }

  func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  func drain() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(descriptor, &bytes, bytes.count) > 0 {}
  }

  /// Waits until signalled or `milliseconds` pass (negative: no limit).
  func wait(milliseconds: Int32) {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&entry, 1, milliseconds)
  }
}
