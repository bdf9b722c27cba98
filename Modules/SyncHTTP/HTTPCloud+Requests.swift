import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Sync
import SyncWire

extension HTTPCloud {
  typealias Response = HTTPClient.Response

  func send(
    _ method: HTTPMethod, _ path: String, body: Data? = nil, headers: [(String, String)] = [], refuse: Bool = true
  ) throws -> Response {
    try Self.send(client, base: base, authorization: authorization, timeout: timeout, location: location, method, path, body: body,
      headers: headers, refuse: refuse)
  }

  /// Sends one request and waits for its answer on the calling thread.
  /// - Throws: ``CloudError/unavailable(location:reason:)`` when the server cannot be
  ///   reached or answers 5xx; ``HTTPCloudError`` for another refusal when `refuse`.
  static func send(
    _ client: HTTPClient, base: String, authorization: String, timeout: TimeAmount, location: String,
    _ method: HTTPMethod, _ path: String, body: Data? = nil, headers: [(String, String)] = [], refuse: Bool = true
  ) throws -> Response {
    // Waiting here on an event loop would block the loop the answer arrives on.
    guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
      throw CloudError.unavailable(location: location, reason: "HTTPCloud was called on an event-loop thread; call it from a thread that may wait")
    }
    let response: Response
    do {
      var request = try HTTPClient.Request(url: base + path, method: method)
      request.headers.add(name: "Authorization", value: authorization)
      request.headers.add(name: "Accept", value: Wire.jsonMediaType)
      for (name, value) in headers { request.headers.add(name: name, value: value) }
      if let body { request.body = .bytes(body) }
      response = try client.execute(request: request, deadline: .now() + timeout).wait()
    } catch {
      throw CloudError.unavailable(location: location, reason: "cannot reach the server: \(describe(error))")
    }
    if response.status.code >= 500 {
      throw CloudError.unavailable(location: location, reason: "the server answered \(response.status.code): \(HTTPCloudError.message(response))")
    }
    if refuse, !(200..<300).contains(response.status.code) { throw HTTPCloudError.refusal(response) }
    return response
  }

  static func decode<T: Decodable>(_ response: Response, location: String) throws -> T {
    guard let body = response.body, let value = try? WireCoding.decoder().decode(T.self, from: Data(body.readableBytesView)) else {
      throw CloudError.damaged(location: location, reason: "the server's answer to a request is not a \(T.self)")
    }
    return value
  }

  func decode<T: Decodable>(_ response: Response) throws -> T { try Self.decode(response, location: location) }

  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout: "no answer in time"
    case let error as HTTPClientError where error == .connectTimeout: "the connection timed out"
    case let error as HTTPClientError where error == .remoteConnectionClosed: "the connection was closed"
    case let error as NIOConnectionError: "connection refused (\(error.host):\(error.port))"
    case let error as IOError where error.errnoCode == ECONNREFUSED: "connection refused"
    case let error as IOError where error.errnoCode == ECONNRESET: "the connection was reset"
    case let error as IOError: "\(error.description)"
    default: String(describing: error)
    }
  }
}
