import Foundation
import Hummingbird
import Logging
import Synchronization

/// Logs one line per request: method, path (without its query), status, time, and — once
/// its token was read — household and device, as the message and as metadata (so
/// `forager-server serve --log-format json` writes them as fields). Headers are never
/// logged, so neither is a token.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    let start = ContinuousClock.now
    let who = RequestIdentity()
    do {
      let response = try await RequestIdentity.$current.withValue(who) { try await next(request, context) }
      log(request, status: response.status.code, start, who)
      return response
    } catch let error as any HTTPResponseError {
      log(request, status: error.status.code, start, who)
      throw error
    }
  }

  private func log(_ request: Request, status: Int, _ start: ContinuousClock.Instant, _ who: RequestIdentity) {
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
    let duration = String(format: "%.1f", milliseconds)
    var metadata: Logger.Metadata = [
      "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)", "duration_ms": "\(duration)",
    ]
    if let (household, device) = who.value {
      metadata["household"] = "\(household)"
      metadata["device"] = "\(device)"
    }
    logger.info("\(request.method.rawValue) \(request.uri.path) \(status) \(duration) ms", metadata: metadata)
  }
}

/// The household and device a request's token named, for its log line: set by
/// authentication, read by ``RequestLogMiddleware``.
final class RequestIdentity: Sendable {
  @TaskLocal static var current: RequestIdentity?

  private let identity = Mutex<(household: String, device: String)?>(nil)

  var value: (household: String, device: String)? { identity.withLock { $0 } }

  func set(household: String, device: String) { identity.withLock { $0 = (household, device) } }
}
