/// The names both sides of Forager's sync protocol agree on: the version prefix of every
/// route, the headers, and the media types (Docs/SERVER.md, Docs/openapi.yaml).
///
/// ```swift
/// let url = base + Wire.Path.batches          // "/v1/batches"
/// request.headers.add(name: Wire.deviceSequenceHeader, value: "8")
/// ```
public enum Wire {
  /// The protocol version every route starts with.
  public static let version = "v1"

  /// The routes of protocol v1, as paths below the server's address.
  public enum Path {
    /// `GET`: liveness, without a token.
    public static let health = "/v1/health"
    /// `GET`: readiness, without a token: 200 when the server's database answers within a
    /// short time, 503 with `Retry-After` when not.
    public static let ready = "/v1/ready"
    /// `GET`: who the token is: household, device, the log's newest sequence, the device's
    /// last accepted batch sequence.
    public static let session = "/v1/session"
    /// `POST`: push one batch. `GET`: pull a page after a cursor.
    public static let batches = "/v1/batches"
    /// `GET`: the household's device registry.
    public static let devices = "/v1/devices"
    /// `PUT`: register (or refresh) the token's own device in the registry.
    public static let ownDevice = "/v1/devices/self"
    /// `GET`: the live channel, a Server-Sent Events stream announcing where the
    /// household's log ends as batches commit (``LiveEvent``).
    public static let live = "/v1/live"
    /// `GET`: a page of the household's snapshot, its joined states at a log position
    /// (``SnapshotMessage``); `404 no-snapshot` while the log is short enough to pull whole.
    public static let snapshot = "/v1/snapshot"
  }

  /// The request header that carries a push's place in its device's own sequence of
  /// batches: 1 for the device's first batch, then one more for each new batch. A retry
  /// of an accepted batch repeats its number.
  public static let deviceSequenceHeader = "Forager-Device-Sequence"

  /// The response header that carries the server's clock when it answered, in whole
  /// milliseconds since 1970: the household's time authority. Every answer carries it,
  /// refusals too; a device learns from it how far its own clock is off and stamps its
  /// writes on the server's time.
  public static let timeHeader = "Forager-Time"

  /// A change batch in `ChangeBatchCoding`'s binary form: the body of a push.
  public static let batchMediaType = "application/vnd.forager.batch"

  /// The live channel's stream (``LiveEvent``).
  public static let eventStreamMediaType = "text/event-stream"

  /// Every other body, request or response.
  public static let jsonMediaType = "application/json"

  /// The query parameters of a pull.
  public enum Query {
    /// Where to continue: a cursor from an earlier page; absent for the start of the log.
    public static let cursor = "cursor"
    /// How many batches at most in the page.
    public static let limit = "limit"
    /// Of a snapshot: which page (from 0; default 0).
    public static let page = "page"
    /// Of a snapshot: its position, from its first page; absent for the newest snapshot.
    public static let position = "position"
  }
}
