import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection after a response sent before its request's body was read to the end —
/// a refused token, a `429`, a body too large by its `Content-Length`, a body that did not
/// arrive within the body timeout — so that the client cannot go on sending the rest of that
/// body, slowly, for as long as it likes.
///
/// Hummingbird reads an unread body to its end before the connection's next request, and its
/// idle timeout fires only when nothing arrives: a byte now and then kept such a connection
/// open without end. Here such a response's head gets `Connection: close`; after its end the
/// server stops sending (half-close: the client reads the whole answer, then end of stream),
/// discards whatever still arrives, and closes the connection ``lingerTime`` later, or at once
/// when the client closes first. (Closing at once with bytes unread would make the kernel
/// reset the connection, and the client could lose the answer it was sent.)
///
/// A response counts as early when more responses have started than requests have ended:
/// requests pipelined behind a finished one do not make its answer early.
final class EarlyResponseCloser: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// How long a closing connection's late bytes are read and dropped before it is closed.
  static let lingerTime = TimeAmount.seconds(2)

  private var requestsEnded = 0
  private var responsesStarted = 0
  private var closeAfterResponse = false
  private var lingering = false
  private var finalClose: Scheduled<Void>?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !lingering else { return }
    if case .end = unwrapInboundIn(data) { requestsEnded += 1 }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head) where head.status.kind != .informational:
      responsesStarted += 1
      if responsesStarted > requestsEnded {
        closeAfterResponse = true
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: promise)
        return
      }
      context.write(data, promise: promise)
    case .end where closeAfterResponse:
      closeAfterResponse = false
      lingering = true
      let written = context.eventLoop.makePromise(of: Void.self)
      written.futureResult.cascade(to: promise)
      context.writeAndFlush(data, promise: written)
      written.futureResult.assumeIsolated().whenComplete { _ in
        context.close(mode: .output, promise: nil)
        self.finalClose = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { context.close(promise: nil) }
      }
    default:
      context.write(data, promise: promise)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    finalClose?.cancel()
    finalClose = nil
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    finalClose?.cancel()
    finalClose = nil
  }
}
