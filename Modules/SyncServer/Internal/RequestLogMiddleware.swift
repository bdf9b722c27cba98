import Foundation
import Hummingbird
import Logging

/// Logs each request's method, path (without its query), status and time. Headers are
/// never logged, so neither is a token.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    let start = ContinuousClock.now
    do {
      let response = try await next(request, context)
      log(request, status: response.status.code, start)
      return response
    } catch let error as any HTTPResponseError {
      log(request, status: error.status.code, start)
      throw error
    }
  }

  private func log(_ request: Request, status: Int, _ start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
    logger.info("\(request.method.rawValue) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds)) ms")
  }
}
