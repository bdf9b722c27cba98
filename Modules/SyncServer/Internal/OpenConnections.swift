import Metrics
import NIOCore
import Synchronization

/// The server's open client connections, as the gauge `forager_open_connections`, and their
/// share per client address: each connection's pipeline holds an ``OpenConnectionHandler``
/// (through Hummingbird's `additionalChannelHandlers`) that counts it up when it becomes
/// active and down when it closes. The metrics listener's own connections are not counted.
///
/// With a limit per address (``ServerConfiguration/maxConnectionsPerAddress``), a connection
/// whose address (``ClientAddress``, by the connection's peer) already holds that many is
/// closed as soon as it is accepted, counted in `forager_connections_refused_total` with
/// `limit="address"`: a client that tops its connections up to `--max-connections` keeps
/// only its share, and the server goes on accepting the others'.
final class OpenConnections: Sendable {
  private let meter: Meter
  private let refused: Counter
  /// The most connections one address may hold; nil: not limited.
  let perAddress: Int?
  private let byAddress = Mutex<[String: Int]>([:])

  init(factory: any MetricsFactory, perAddress: Int? = nil) {
    meter = Meter(label: "forager_open_connections", factory: factory)
    refused = Counter(label: "forager_connections_refused_total", dimensions: [("limit", "address")], factory: factory)
    self.perAddress = perAddress.map { max(1, $0) }
    meter.set(0)
  }

  /// A handler for one new connection's pipeline.
  func handler() -> OpenConnectionHandler { OpenConnectionHandler(connections: self) }

  /// How many connections `address` holds now.
  func count(of address: String) -> Int { byAddress.withLock { $0[address, default: 0] } }

  /// Counts a connection of `address` in, or refuses it (false) when the address holds its share.
  fileprivate func opened(_ address: String?) -> Bool {
    if let perAddress, let address {
      let admitted = byAddress.withLock { counts in
        guard counts[address, default: 0] < perAddress else { return false }
        counts[address, default: 0] += 1
        return true
      }
      guard admitted else {
        refused.increment()
        return false
      }
    }
    meter.increment()
    return true
  }

  fileprivate func closed(_ address: String?) {
    if perAddress != nil, let address {
      byAddress.withLock { counts in
        let left = counts[address, default: 1] - 1
        counts[address] = left > 0 ? left : nil
      }
    }
    meter.decrement()
  }
}

/// Counts its connection in ``OpenConnections`` from active to inactive (or to its removal),
/// once, whether it joins the pipeline before or after the channel is active; closes it at
/// once when its address holds its share of connections.
final class OpenConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  private let connections: OpenConnections
  /// The address the connection is counted under, once it is counted.
  private var counted: String??

  init(connections: OpenConnections) { self.connections = connections }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { open(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    context.fireChannelActive()
    open(context)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // A refused connection's bytes go nowhere: it is closing.
    guard counted != nil else { return }
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    close()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) { close() }

  private func open(_ context: ChannelHandlerContext) {
    guard counted == nil, context.channel.isActive else { return }
    let address = context.channel.remoteAddress.map(ClientAddress.key)
    guard connections.opened(address) else {
      context.close(promise: nil)
      return
    }
    counted = .some(address)
  }

  private func close() {
    guard let address = counted else { return }
    counted = nil
    connections.closed(address)
  }
}
