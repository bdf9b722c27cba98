import Foundation
import Hummingbird
import ServerTestSupport
import SyncServer
import SyncWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` with a service's routes listening on a free port of 127.0.0.1; the server
/// stops when `body` returns or throws.
func withLoopbackServer<T: Sendable>(_ service: SyncService, _ body: @escaping @Sendable (_ port: Int) async throws -> T) async throws -> T
{
  try await withService(service) { _, port in try await body(port) }
}

/// A TCP connection to 127.0.0.1:`port` from a source address of the loopback network
/// (127.0.0.2, 127.0.0.3, …: each is another client address to the server), with blocking
/// reads and writes: use it from a thread of its own (``onThread(_:)``), never from the
/// cooperative threads the server's own tasks run on.
final class LoopbackConnection: @unchecked Sendable {
  let fd: Int32

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(from source: String, port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else {
      close(fd)
      throw Failure(description: "cannot bind to \(source): errno \(errno)")
    }
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = in_port_t(UInt16(port).bigEndian)
    remote.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(fd)
      throw Failure(description: "cannot connect from \(source) to port \(port): errno \(errno)")
    }
  }

  deinit { close(fd) }

  func send(_ data: Data) {
    var offset = 0
    while offset < data.count {
      let sent = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + offset }, data.count - offset, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// What the server sent until it closed the connection, or nil when `seconds` passed first.
  func receiveUntilClosed(within seconds: Double) -> Data? {
    let deadline = Date().addingTimeInterval(seconds)
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return received }
      received.append(contentsOf: buffer[0..<count])
    }
    return nil
  }

  /// Sends one request with `Connection: close` and reads its answer: the status (nil when
  /// no answer came within `seconds`) and the body's text.
  func request(
    _ method: String, _ path: String, token: String? = nil, headers: [String: String] = [:], body: Data = Data(), within seconds: Double
  ) -> (status: Int?, text: String) {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    send(Data((head + "\r\n").utf8) + body)
    guard let answer = receiveUntilClosed(within: seconds) else { return (nil, "") }
    let text = String(decoding: answer, as: UTF8.self)
    let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    return (status, text)
  }

  /// Sends a push and reads its answer.
  func push(_ bytes: Data, token: String, deviceSequence: Int64, within seconds: Double) -> (status: Int?, text: String) {
    request(
      "POST", Wire.Path.batches, token: token,
      headers: ["Content-Type": Wire.batchMediaType, Wire.deviceSequenceHeader: String(deviceSequence)], body: bytes, within: seconds)
  }
}

/// Runs blocking work on a thread of its own, so that it neither waits for nor holds one of
/// the cooperative threads the server's tasks need.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Seconds since some fixed point, for latencies.
func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// A flag one task sets and other threads read.
final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .relaxed) }
  func set() { value.store(true, ordering: .relaxed) }
}
