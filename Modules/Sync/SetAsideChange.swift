public import Foundation
import Model

/// A change of the cloud's log that a device did not apply because it breaks
/// ``ChangeRules`` (or a batch whose bytes cannot be read at all): kept aside with its
/// place in the log and the reason, shown by `sync status`, while everything else still
/// applies and the device's own pushes go on.
///
/// A change whose only fault is a stamp ahead of this device's clock waits
/// (``waitsUntil``): a later sync fetches it again from the cloud and applies it once the
/// clock has reached it. Every other change stays aside for good, on every device alike,
/// so the devices still converge. Only the reference is kept (never the change's bytes,
/// which could be large): a set-aside change costs a device a few hundred bytes, and at
/// most ``maximumKept`` are kept.
public struct SetAsideChange: Sendable, Hashable, Codable {
  /// The most set-aside changes a device keeps; past it, they are only counted.
  public static let maximumKept = 10_000

  /// The batch's place in the cloud's log.
  public let sequence: Int64
  /// The change's place in its batch; nil when the whole batch was set aside.
  public let index: Int?
  /// The id of the change's batch.
  public let batchID: String
  /// The replica the batch claims to come from.
  public let replica: String
  /// The record the change names, when it could be read.
  public let kind: String?
  /// The id of the record the change names, when it could be read.
  public let id: UUID?
  /// The field at fault, when one is.
  public let field: String?
  /// ``ChangeRules/Violation/Code``'s raw value, or `batch-unreadable`, `batch-invalid`.
  public let code: String
  /// Why it was set aside, for the user.
  public let reason: String
  /// For a change whose stamp is ahead of this device's clock: the stamp time (ms since
  /// 1970) the clock plus the allowed skew must reach before it is tried again.
  public let waitsUntil: Int64?

  /// A set-aside change from its parts.
  public init(
    sequence: Int64, index: Int?, batchID: String, replica: String, kind: String?, id: UUID?, field: String?, code: String,
    reason: String, waitsUntil: Int64?
  ) {
    // A hostile batch chooses these texts: what is kept of them is bounded.
    self.sequence = sequence
    self.index = index
    self.batchID = Self.bounded(batchID)
    self.replica = Self.bounded(replica)
    self.kind = kind.map(Self.bounded)
    self.id = id
    self.field = field.map(Self.bounded)
    self.code = Self.bounded(code)
    self.reason = String(reason.prefix(400))
    self.waitsUntil = waitsUntil
  }

  /// The change at `index` of `batch` (at `sequence` in the log), set aside for `violation`:
  /// one that is only ahead of the clock waits for its latest stamp.
  init(sequence: Int64, index: Int, of batch: ChangeBatch, for violation: ChangeRules.Violation) {
    let change = batch.changes[index]
    self.init(
      sequence: sequence, index: index, batchID: batch.id, replica: batch.replica, kind: change.kind.rawValue, id: change.id,
      field: violation.field, code: violation.code.rawValue, reason: violation.reason,
      waitsUntil: violation.isTemporary ? change.fields.values.map(\.stamp.time).max() : nil)
  }

  /// "batch 12 (phone:3-9), change 4: category 1f0c… field 'displayName' has 3000000 characters; …"
  public var summary: String {
    var text = "batch \(sequence) (\(batchID))"
    if let index { text += ", change \(index + 1)" }
    if let kind, let id { text += ": \(kind) \(id.uuidString.lowercased())" }
    if let field { text += " field '\(field)'" }
    return text + " " + reason
  }

  private static func bounded(_ text: String) -> String {
    String(text.unicodeScalars.prefix(80).map { ValueRules.isForbidden($0, allowingLineBreaks: false) ? "?" : Character($0) })
  }
}
