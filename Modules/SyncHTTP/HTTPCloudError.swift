import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SyncWire

/// A refusal from `forager-server` (or a setting that cannot work), as opposed to the
/// server being out of reach, which is `CloudError.unavailable`.
public enum HTTPCloudError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the request: its HTTP status, its error code and its message.
  case refused(status: Int, code: String, message: String)
  /// The token belongs to another household than the one named.
  case householdMismatch(expected: String, token: String)
  /// The address is not an http(s) URL.
  case badURL(String)

  /// A message naming what the server or the caller got wrong.
  public var description: String {
    switch self {
    case .refused(let status, let code, let message): "the server refused (\(status) \(code)): \(message)"
    case .householdMismatch(let expected, let token): "the token is for household '\(token)', not '\(expected)'"
    case .badURL(let url): "'\(url)' is not a server address (http://HOST:PORT)"
    }
  }

  static func refusal(_ response: HTTPClient.Response) -> HTTPCloudError {
    let wire = response.body.flatMap { try? WireCoding.decoder().decode(WireError.self, from: Data($0.readableBytesView)) }
    return .refused(status: Int(response.status.code), code: wire?.error.code ?? "http-\(response.status.code)", message: message(response))
  }

  static func message(_ response: HTTPClient.Response) -> String {
    let wire = response.body.flatMap { try? WireCoding.decoder().decode(WireError.self, from: Data($0.readableBytesView)) }
    return wire?.error.message ?? response.status.reasonPhrase
  }
}
