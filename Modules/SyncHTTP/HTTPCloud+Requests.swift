import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Sync
import SyncWire

/// Sends the requests of one ``HTTPCloud``: one at a time, waiting on the calling thread,
/// retrying what failed for a passing reason (no connection, no answer in time, a 5xx
/// answer) after the delays of its ``HTTPCloud/RetryPolicy``.
///
/// Retrying is safe for every request the cloud sends: reads change nothing, a
/// registration is the same upsert each time, and a push carries its batch id, so a push
/// the server stored before its answer was lost is answered with the stored receipt.
struct Requester: Sendable {
  typealias Response = HTTPClient.Response

  /// The process's client for every ``HTTPCloud``: a connection that cannot be made fails
  /// at once (the cloud's ``HTTPCloud/RetryPolicy`` decides when to try again, where
  /// async-http-client's own default keeps retrying until the request's deadline), and
  /// redirects are not followed (a server never sends one). It lives as long as the process.
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.timeout = .init(connect: .seconds(5))
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }()

  let client: HTTPClient
  let base: String
  let authorization: String
  let timeout: TimeAmount
  let location: String
  let retry: HTTPCloud.RetryPolicy
  /// The server's clock, as its answers tell it.
  let serverClock = ServerClock()

  /// Sends one request and waits for its answer; a 5xx or a 429 with `Retry-After` is sent
  /// again after the server's `Retry-After` (at most a minute), else the policy's delay.
  /// - Throws: `CloudError/unavailable(location:reason:)` when the server cannot be
  ///   reached, answers 5xx or keeps answering 429 after every retry; ``HTTPCloudError``
  ///   for another refusal when `refuse`.
  func send(
    _ method: HTTPMethod, _ path: String, body: Data? = nil, headers: [(String, String)] = [], refuse: Bool = true
  ) throws -> Response {
    // Waiting here on an event loop would block the loop the answer arrives on.
    guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
      throw CloudError.unavailable(
        location: location, reason: "HTTPCloud was called on an event-loop thread; call it from a thread that may wait")
    }
    var attempt = 0
    while true {
      do {
        return try sendOnce(method, path, body: body, headers: headers, refuse: refuse)
      } catch let busy as Busy {
        guard attempt < retry.delays.count else {
          let tries = attempt == 0 ? "" : " (tried \(attempt + 1) times)"
          throw CloudError.unavailable(location: location, reason: busy.reason + tries)
        }
        // The server's Retry-After, when it gave one, else the policy's delay.
        retry.wait(busy.retryAfter.map { min($0, Self.longestRetryAfter) } ?? retry.seconds(attempt))
        attempt += 1
      }
    }
  }

  /// The longest a `Retry-After` makes a request wait before it is sent again, in seconds.
  static let longestRetryAfter: TimeInterval = 60

  /// A failure worth sending the request again for: no connection, no answer in time, a 5xx
  /// answer, or a 429 that says when to come back (`Retry-After`).
  struct Busy: Error {
    let reason: String
    /// The answer's `Retry-After`, in seconds.
    let retryAfter: TimeInterval?
  }

  private func sendOnce(_ method: HTTPMethod, _ path: String, body: Data?, headers: [(String, String)], refuse: Bool) throws -> Response {
    let response: Response
    do {
      var request = try HTTPClient.Request(url: base + path, method: method)
      request.headers.add(name: "Authorization", value: authorization)
      request.headers.add(name: "Accept", value: Wire.jsonMediaType)
      for (name, value) in headers { request.headers.add(name: name, value: value) }
      if let body { request.body = .bytes(body) }
      let sent = ContinuousClock.now
      response = try client.execute(request: request, deadline: .now() + timeout).wait()
      serverClock.note(response.headers.first(name: Wire.timeHeader), sent: sent, arrived: .now)
    } catch {
      throw Busy(reason: "cannot reach the server: \(Self.describe(error))", retryAfter: nil)
    }
    // A 429 without Retry-After (a household's held quota) is a refusal, not a wait.
    let retryAfter = response.headers.first(name: "Retry-After").flatMap { TimeInterval($0) }.map { max(0, $0) }
    if response.status.code >= 500 || (response.status.code == 429 && retryAfter != nil) {
      throw Busy(reason: "the server answered \(response.status.code): \(HTTPCloudError.message(response))", retryAfter: retryAfter)
    }
    if refuse, !(200..<300).contains(response.status.code) { throw HTTPCloudError.refusal(response) }
    return response
  }

  /// The JSON value an answer holds.
  func decode<T: Decodable>(_ response: Response) throws -> T {
    guard let body = response.body, let value = try? WireCoding.decoder().decode(T.self, from: Data(body.readableBytesView)) else {
      throw CloudError.damaged(location: location, reason: "the server's answer to a request is not a \(T.self)")
    }
    return value
  }

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

extension HTTPCloud {
  /// How often a request that failed for a passing reason is sent again, and after what
  /// delays: each delay is one more attempt. The default tries four times over about 3.5 s
  /// (0.25 s, 1 s, 2.25 s between attempts); ``none`` fails at once.
  public struct RetryPolicy: Sendable {
    /// The delay before each retry, in order.
    public var delays: [Duration]
    /// How the calling thread waits before a retry, given the seconds: it sleeps unless a
    /// test injects a clock that jumps instead.
    public var wait: @Sendable (Double) -> Void

    /// A policy that retries once after each of `delays`; `wait` sleeps the calling thread unless given.
    public init(delays: [Duration], wait: (@Sendable (Double) -> Void)? = nil) {
      self.delays = delays
      self.wait = wait ?? { Thread.sleep(forTimeInterval: $0) }
    }

    /// Four attempts, 0.25 s, 1 s and 2.25 s apart.
    public static let standard = RetryPolicy(delays: [.milliseconds(250), .seconds(1), .milliseconds(2_250)])
    /// One attempt: a failed request fails at once.
    public static let none = RetryPolicy(delays: [])

    func seconds(_ attempt: Int) -> TimeInterval {
      let delay = delays[attempt].components
      return TimeInterval(delay.seconds) + TimeInterval(delay.attoseconds) / 1e18
    }
  }
}
