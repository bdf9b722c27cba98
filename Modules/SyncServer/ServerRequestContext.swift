public import Hummingbird
public import NIOCore

/// The request context of the server's routes: Hummingbird's basic context plus the
/// connection's peer address, which the per-address rate limit reads (``ClientAddress``).
/// HummingbirdTesting's router client has no peer: its requests have no address.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The connection's peer, nil without a socket.
  public let remoteAddress: SocketAddress?

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}
