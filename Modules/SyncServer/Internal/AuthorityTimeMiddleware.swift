import Foundation
import HTTPTypes
import Hummingbird
import SyncWire

/// Puts the server's clock on every answer (`Forager-Time`, ``Wire/timeHeader``), refusals
/// included: the server is its households' time authority, and a device whose clock is off
/// learns by how much from any answer it gets (Docs/SYNC.md, "One time authority").
struct AuthorityTimeMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The server's clock (``ServerConfiguration/clock``): the one its door checks stamps with.
  let clock: @Sendable () -> Date

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    if let field = AuthorityTime.field { response.headers[field] = AuthorityTime.reading(clock()) }
    return response
  }
}

/// The `Forager-Time` header's name and value.
enum AuthorityTime {
  static let field = HTTPField.Name(Wire.timeHeader)

  /// The header's value: whole milliseconds since 1970.
  static func reading(_ date: Date) -> String {
    let milliseconds = date.timeIntervalSince1970 * 1000
    guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "0" }
    return String(Int64(milliseconds.rounded(.down)))
  }
}
