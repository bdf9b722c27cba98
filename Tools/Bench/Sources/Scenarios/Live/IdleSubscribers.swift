import BenchBaselines
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Idle live subscribers as cheap as a client can be: one plain socket each to a server's
/// `GET /v1/live`, all read by one thread that wakes every few milliseconds, reads what
/// arrived and throws it away.
///
/// The server does for them what it does for any subscriber — holds the stream, writes each
/// announcement of the household's pushes and each heartbeat — while the bench spends about
/// a read per event. Real subscribers are phones elsewhere; 1,000 of them simulated with
/// the full HTTP client on the server's own two cores cost more CPU than the server spends
/// on them, and the push figure would measure that simulation (Docs/PERFORMANCE.md, `live`).
final class IdleSubscribers: @unchecked Sendable {
  private let sockets: [Int32]
  private let stopped = Counter()
  private let closedCount = Counter()
  private let bytesCount = Counter()
  private let done = DispatchSemaphore(value: 0)

  /// Opens a subscription per token on `port` of 127.0.0.1 and waits until every stream has
  /// said hello, at most a minute.
  /// - Throws: when a socket cannot connect, a subscription is refused, or a stream has not
  ///   said hello in time.
  init(port: Int, tokens: [String]) throws {
    var opened: [Int32] = []
    do {
      for token in tokens {
        let socket = try Self.connect(port: port)
        opened.append(socket)
        let request =
          "GET /v1/live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
          + "Accept: text/event-stream\r\n\r\n"
        try Self.send(request, to: socket)
      }
      try Self.waitForHellos(opened)
    } catch {
      for socket in opened { close(socket) }
      throw error
    }
    sockets = opened
    let thread = Thread { [self] in readUntilStopped() }
    thread.name = "idle subscribers"
    thread.start()
  }

  /// How many streams the server ended while they were open.
  var closedByServer: Int { closedCount.value }
  /// The bytes the streams carried after their hello.
  var bytes: Int { bytesCount.value }

  /// Stops reading and closes every socket.
  func cancel() {
    guard stopped.value == 0 else { return }
    stopped.add()
    done.wait()
    for socket in sockets { close(socket) }
  }

  private func readUntilStopped() {
    var fds = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    var open = Set(sockets)
    while stopped.value == 0 && !open.isEmpty {
      // Reading in rounds: when the bench reads does not change what the server does
      // (its writes end in the socket's buffer), and rounds keep the bench's share small.
      usleep(10_000)
      guard poll(&fds, nfds_t(fds.count), 0) > 0 else { continue }
      for index in fds.indices where fds[index].revents != 0 {
        let socket = fds[index].fd
        let count = read(socket, &buffer, buffer.count)
        if count > 0 {
          bytesCount.add(count)
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          closedCount.add()
          open.remove(socket)
          fds[index].fd = -1
        }
        fds[index].revents = 0
      }
    }
    done.signal()
  }

  private static func connect(port: Int) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchError("cannot open a socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
      close(socket)
      throw BenchError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
    }
    return socket
  }

  private static func send(_ text: String, to socket: Int32) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
      guard sent > 0 else { throw BenchError("cannot send a subscription request: errno \(errno)") }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Reads each socket until its stream's hello; then makes it non-blocking.
  private static func waitForHellos(_ sockets: [Int32]) throws {
    let deadline = Date().addingTimeInterval(60)
    var heard = [Data](repeating: Data(), count: sockets.count)
    var waiting = Set(sockets.indices)
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let hello = Data("event: hello".utf8)
    while !waiting.isEmpty {
      guard Date() < deadline else {
        throw BenchError("only \(sockets.count - waiting.count) of \(sockets.count) idle subscriptions said hello within a minute")
      }
      var fds = waiting.map { pollfd(fd: sockets[$0], events: Int16(POLLIN), revents: 0) }
      let indices = Array(waiting)
      guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
      for (slot, index) in indices.enumerated() where fds[slot].revents != 0 {
        let count = read(sockets[index], &buffer, buffer.count)
        guard count > 0 else { throw BenchError("the server closed an idle subscription before its hello") }
        heard[index].append(contentsOf: buffer[..<count])
        if heard[index].range(of: Data("\r\n\r\n".utf8)) != nil, !heard[index].starts(with: Data("HTTP/1.1 200".utf8)) {
          throw BenchError("an idle subscription was refused: \(String(decoding: heard[index].prefix(200), as: UTF8.self))")
        }
        if heard[index].range(of: hello) != nil {
          let flags = fcntl(sockets[index], F_GETFL)
          _ = fcntl(sockets[index], F_SETFL, flags | O_NONBLOCK)
          waiting.remove(index)
        }
      }
    }
  }
}
