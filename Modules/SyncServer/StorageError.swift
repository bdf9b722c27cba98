import HTTPTypes

/// Why a storage call of a request failed, as the storage itself classifies it: the
/// request's data was refused, the storage failed this call, or the storage is away.
///
/// Only ``away(_:)`` (and a call that outlasts ``ServerConfiguration/storageTimeout``) marks
/// the storage down and closes the ``StorageGate`` for every household; the other two answer
/// the one request. So no request's data can mark the storage down: a value out of a
/// column's range or a key too large for an index is that request's refusal, and every
/// other household's requests go on (Docs/SERVER.md, "Storage health").
///
/// A backend throws these from its request calls; an error of another type is read as the
/// storage being away (a backend that cannot tell says so by not classifying).
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The storage refused the request's data; the storage is up.
  case refused(Refusal)
  /// The storage answered but failed this call for a reason of its own (a conflict between
  /// transactions, a fault of the server's SQL): the request fails, the storage is up.
  /// `transient`: the same call may succeed when sent again.
  case failed(String, transient: Bool)
  /// The storage cannot be reached: a connection that failed or closed, a database shutting
  /// down or out of resources.
  case away(String)

  /// What about a request's data the storage refused, and why.
  public struct Refusal: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      /// A value the storage cannot hold: out of its column's range, not valid for its type
      /// (PostgreSQL SQLSTATE class 22, data exception).
      case value
      /// A value that breaks a constraint: a duplicate key, a missing reference (class 23).
      case constraint
      /// A value past a limit of the storage: a key too large for an index (class 54).
      case size
    }

    public let kind: Kind
    /// The storage's own words for it ("integer out of range", "index row size 4016
    /// exceeds btree version 4 maximum 2704 …"): about the request's own data.
    public let reason: String
    /// The column, constraint or index it concerns, when the storage names one.
    public let subject: String?

    public init(_ kind: Kind, reason: String, subject: String? = nil) {
      self.kind = kind
      self.reason = reason
      self.subject = subject
    }
  }

  public var description: String {
    switch self {
    case .refused(let refusal): "refused (\(refusal.kind.rawValue)): \(refusal.reason)" + (refusal.subject.map { " [\($0)]" } ?? "")
    case .failed(let reason, let transient): "failed\(transient ? " (transient)" : ""): \(reason)"
    case .away(let reason): "away: \(reason)"
    }
  }
}

extension ServerError {
  /// The answer to a request whose data the storage refused: 422 for a value it cannot
  /// hold, 409 for a constraint, 413 for a value past its size limits; the storage's words
  /// say which value.
  static func storageRefused(_ refusal: StorageError.Refusal) -> ServerError {
    let about = refusal.subject.map { " (\($0))" } ?? ""
    return switch refusal.kind {
    case .value:
      ServerError(
        .unprocessableContent, code: "value-refused",
        message: "the server's database cannot hold a value of this request\(about): \(refusal.reason); nothing was stored")
    case .constraint:
      ServerError(
        .conflict, code: "constraint-refused",
        message: "the server's database refused this request\(about): \(refusal.reason); nothing was stored")
    case .size:
      ServerError(
        .contentTooLarge, code: "value-too-large",
        message: "a value of this request is too large for the server's database\(about): \(refusal.reason); nothing was stored")
    }
  }

  /// The answer to a request the storage failed for a reason of its own, the storage up:
  /// `503 storage-busy` with `Retry-After` when sending it again may succeed, else
  /// `500 storage-failed` (the details go to the server's log).
  static func storageFailed(transient: Bool, retryAfter: Int) -> ServerError {
    transient
      ? ServerError(
        .serviceUnavailable, code: "storage-busy", message: "the server's database could not finish this request now; send it again",
        retryAfter: retryAfter)
      : ServerError(
        .internalServerError, code: "storage-failed",
        message: "the server's database failed this request; nothing was stored (the server's log says why)")
  }
}
