import Metrics
import NIOCore

/// The server's open client connections, as the gauge `forager_open_connections`: each
/// connection's pipeline holds an ``OpenConnectionHandler`` (through Hummingbird's
/// `additionalChannelHandlers`) that counts it up when it becomes active and down when it
/// closes. The metrics listener's own connections are not counted.
final class OpenConnections: Sendable {
  private let meter: Meter

  init(factory: any MetricsFactory) {
    meter = Meter(label: "forager_open_connections", factory: factory)
    meter.set(0)
  }

  /// A handler for one new connection's pipeline.
  func handler() -> OpenConnectionHandler { OpenConnectionHandler(connections: self) }

  fileprivate func opened() { meter.increment() }
  fileprivate func closed() { meter.decrement() }
}

/// Counts its connection in ``OpenConnections`` from active to inactive (or to its removal),
/// once, whether it joins the pipeline before or after the channel is active.
final class OpenConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  private let connections: OpenConnections
  private var counted = false

  init(connections: OpenConnections) { self.connections = connections }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { open() }
  }

  func channelActive(context: ChannelHandlerContext) {
    open()
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    close()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) { close() }

  private func open() {
    guard !counted else { return }
    counted = true
    connections.opened()
  }

  private func close() {
    guard counted else { return }
    counted = false
    connections.closed()
  }
}
