import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One forwarded connection of a ``FaultProxy``: per direction a reader thread that takes
/// chunks as they arrive and a writer thread that sends each one once its delay has passed
/// since its arrival (so a delay adds latency, not a bandwidth cap). Its descriptors are
/// closed once all four threads have ended.
final class Connection: @unchecked Sendable {
  private let client: Int32
  private let server: Int32
  private let proxy: FaultProxy
  private let onClose: @Sendable () -> Void
  private let condition = NSCondition()
  private var threadsRunning = 4
  private var wasCut = false
  /// Set, under the lock, just before the descriptors are closed.
  private var closed = false
  private let upstream = Queue()
  private let downstream = Queue()

  init(client: Int32, server: Int32, proxy: FaultProxy, onClose: @escaping @Sendable () -> Void) {
    self.client = client
    self.server = server
    self.proxy = proxy
    self.onClose = onClose
  }

  func start() {
    spawn("read-up") { [self] in read(from: client, into: upstream) }
    spawn("write-up") { [self] in write(from: upstream, to: server, cutting: false) }
    spawn("read-down") { [self] in read(from: server, into: downstream) }
    spawn("write-down") { [self] in write(from: downstream, to: client, cutting: true) }
  }

  /// Closes both sides at once, in the middle of whatever was under way.
  func cut() {
    condition.withLock {
      wasCut = true
      // Under the lock: once the last thread closed the descriptors, their numbers may
      // belong to other sockets.
      guard !closed else { return }
      shutdown(client, Int32(SHUT_RDWR))
      shutdown(server, Int32(SHUT_RDWR))
    }
    upstream.end()
    downstream.end()
  }

  private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread { [self] in
      body()
      let last = condition.withLock { () -> Bool in
        threadsRunning -= 1
        closed = threadsRunning == 0
        return closed
      }
      if last {
        close(client)
        close(server)
        onClose()
      }
    }
    thread.name = "fault-proxy-\(name)"
    thread.stackSize = 256 << 10
    thread.start()
  }

  private func read(from descriptor: Int32, into queue: Queue) {
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      queue.put(Array(buffer.prefix(count)))
    }
    queue.end()
  }

  /// Sends each chunk once its delay passed; `cutting`: the server's side, whose chunks may
  /// be cut (``FaultProxy/cutsNextChunk()``).
  private func write(from queue: Queue, to descriptor: Int32, cutting: Bool) {
    while let (arrived, bytes) = queue.take() {
      let due = arrived + FaultProxy.seconds(proxy.delay)
      let wait = due - ProcessInfo.processInfo.systemUptime
      if wait > 0 { usleep(useconds_t(min(wait, 10) * 1_000_000)) }
      if cutting && bytes.count >= 2 && proxy.cutsNextChunk() {
        // The middle of a response: half of the chunk, then nothing.
        _ = send(all: Array(bytes.prefix(bytes.count / 2)), to: descriptor)
        cut()
        return
      }
      guard send(all: bytes, to: descriptor) else {
        cut()
        return
      }
    }
    if !condition.withLock({ wasCut }) { shutdown(descriptor, Int32(SHUT_WR)) }
  }

  private func send(all bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  /// Chunks of one direction with their arrival time; nil after the end.
  final class Queue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [(TimeInterval, [UInt8])] = []
    private var ended = false

    func put(_ bytes: [UInt8]) {
      condition.withLock {
        chunks.append((ProcessInfo.processInfo.systemUptime, bytes))
        condition.signal()
      }
    }

    func end() {
      condition.withLock {
        ended = true
        condition.signal()
      }
    }

    /// The next chunk, waiting for one; nil once the direction ended and is drained.
    func take() -> (TimeInterval, [UInt8])? {
      condition.withLock {
        while chunks.isEmpty && !ended { condition.wait() }
        return chunks.isEmpty ? nil : chunks.removeFirst()
      }
    }
  }
}

extension FaultProxy {
  static func seconds(_ duration: Duration) -> TimeInterval {
    TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
  }
}
