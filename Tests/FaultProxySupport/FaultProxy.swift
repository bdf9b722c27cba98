import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A bad network on loopback: a TCP forwarder between a device and a server that delays
/// every chunk it forwards and cuts a share of its connections in the middle of a response.
/// Each chunk the server sends (an answer, an event of a live stream) has `cutShare` odds of
/// being the one cut: half of it is forwarded, then both sides are closed. Connections are
/// kept alive and reused, so a share of chunks rather than of accepted connections is what
/// makes a cut land on a request a device is waiting for.
/// The bench's `live` scenario and the HTTP sync tests put a device behind it.
///
/// Each accepted connection gets two threads per direction (a reader and a writer), all of
/// their own: nothing here runs on Swift's cooperative pool, so a test or a server that
/// needs that pool is never held by the proxy's blocking reads. Which connections are cut
/// comes from a seeded generator, so a seed replays the same faults.
///
/// ```swift
/// let proxy = try FaultProxy(targetPort: serverPort, faults: .init(delay: .milliseconds(100), cutShare: 0.05))
/// defer { proxy.stop() }
/// let cloud = try HTTPCloud(url: "http://127.0.0.1:\(proxy.port)", token: token)
/// ```
public final class FaultProxy: Sendable {
  /// What the proxy does to the traffic it forwards.
  public struct Faults: Sendable, Hashable {
    /// Added to every chunk, in both directions, from when it arrived (0 – 10 s).
    public var delay: Duration
    /// The odds (0 – 1) that a chunk from the server is cut in its middle, closing its
    /// connection.
    public var cutShare: Double
    /// Seeds the choice of the chunks cut.
    public var seed: UInt64

    public init(delay: Duration = .zero, cutShare: Double = 0, seed: UInt64 = 1) {
      self.delay = min(max(delay, .zero), .seconds(10))
      self.cutShare = cutShare.isFinite ? min(max(cutShare, 0), 1) : 0
      self.seed = seed
    }
  }

  /// The port it listens on, on 127.0.0.1.
  public let port: Int
  private let targetPort: Int
  private let listener: Int32
  private struct State {
    var faults: Faults
    var random: UInt64
    var stopped = false
    var open: [Int: Connection] = [:]
    var nextID = 0
    var accepted = 0
    var cut = 0
  }
  private let state: Mutex<State>

  /// Starts listening on a free port of 127.0.0.1, forwarding to `targetPort` there.
  /// - Throws: ``FaultProxyError`` when no socket can be bound.
  public init(targetPort: Int, faults: Faults = Faults()) throws {
    self.targetPort = targetPort
    state = Mutex(State(faults: faults, random: faults.seed))
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw FaultProxyError("socket() failed: errno \(errno)") }
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(descriptor, 512) == 0 else {
      close(descriptor)
      throw FaultProxyError("cannot listen on 127.0.0.1: errno \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    listener = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "fault-proxy-accept"
    thread.start()
  }

  deinit { stop() }

  /// Changes the faults for connections accepted from now on (and the delay of open ones).
  public func setFaults(_ faults: Faults) { state.withLock { $0.faults = faults } }

  /// Connections accepted, and how many of them were cut.
  public var counts: (accepted: Int, cut: Int) { state.withLock { ($0.accepted, $0.cut) } }

  /// Cuts every open connection now (as a network that drops), without stopping the proxy.
  public func cutAll() {
    for connection in state.withLock({ Array($0.open.values) }) { connection.cut() }
  }

  /// Stops accepting and closes every connection.
  public func stop() {
    let open = state.withLock { state -> [Connection]? in
      guard !state.stopped else { return nil }
      state.stopped = true
      return Array(state.open.values)
    }
    guard let open else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for connection in open { connection.cut() }
  }

  var delay: Duration { state.withLock { $0.faults.delay } }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else {
        if errno == EINTR { continue }
        return
      }
      guard let server = Self.connectLoopback(port: targetPort) else {
        close(client)
        continue
      }
      let admitted = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.accepted += 1
        state.nextID += 1
        return state.nextID
      }
      guard let id = admitted else {
        close(client)
        close(server)
        return
      }
      let connection = Connection(client: client, server: server, proxy: self) { [weak self] in
        self?.state.withLock { _ = $0.open.removeValue(forKey: id) }
      }
      state.withLock { $0.open[id] = connection }
      connection.start()
    }
  }

  /// Whether the chunk the server just sent is to be cut (counted when it is).
  func cutsNextChunk() -> Bool {
    state.withLock { state in
      guard state.faults.cutShare > 0, Self.nextUnit(&state.random) < state.faults.cutShare else { return false }
      state.cut += 1
      return true
    }
  }

  /// SplitMix64, as a number in 0 ..< 1.
  static func nextUnit(_ state: inout UInt64) -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53)
  }

  static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  static func connectLoopback(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
  }
}

/// Why a ``FaultProxy`` could not start.
public struct FaultProxyError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
