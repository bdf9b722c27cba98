public import Foundation
public import Model
import Persistence

/// What a change batch from another device may hold: the checks the sync server makes at
/// the door and every device makes again on pull (a device trusts no log). Values follow
/// `ValueRules`, the rule set of the command language, the repositories and the stores;
/// this adds what only a batch carries: register names, stamps and ids.
///
/// - The change's kind and every field it carries existed in the batch's declared schema
///   (``SchemaHistory``): a batch that declares 4 holds no store.
/// - Every register is a schema field of the change's kind, `@exists` (a flag), or a merge
///   edge `@merge:<keeper>` holding that keeper's id; batches of earlier versions may also
///   carry `@deleted` (a date) and `@redirect` (an id). Its value is one that field may hold.
/// - Creation and update times are finite dates from 1900, at most ``now`` plus
///   ``allowedSkew`` (a date ahead is `clock-ahead`, like a stamp: the dates join by min and
///   max without stamps, so a date from the future would stick); the id is not the nil
///   UUID; the owner is a name.
/// - A stamp's time is at most ``now`` plus ``allowedSkew`` (a clock ahead of the checker's
///   is `clock-ahead`, never a silent win) and at least ``Stamp/earliestTime``, its counter
///   within 0…``Stamp/maximumCounter``,
///   and its replica the batch's own — or the empty replica of a migration, with exactly a
///   migration's stamp (`Stamp.migration`, `Stamp.migrationMerge`). Creation stamps (2⁵⁰ ms
///   below real time) are an ordinary stamp's time and pass by the same rule.
///
/// ```swift
/// let rules = ChangeRules(now: Date())
/// if let violation = rules.violation(in: change, of: batch) { print(violation) }
/// ```
public struct ChangeRules: Sendable {
  /// How far a stamp may lie ahead of the checker's clock: 10 seconds. Devices stamp on
  /// the time authority's clock (a server's, learned at each sync), so an honest stamp lies
  /// within a round trip of it; a skew this small leaves a device that stamps ahead on
  /// purpose no race worth winning.
  public static let defaultAllowedSkew: TimeInterval = 10
  /// The most changes one batch may hold (a device pushes at most 500).
  public static let maximumChanges = 10_000

  /// The checker's clock, in milliseconds since 1970.
  public let now: Int64
  /// The allowed skew, in milliseconds.
  public let allowedSkew: Int64

  /// Rules checked at `now`, allowing stamps up to `allowedSkew` seconds ahead.
  public init(now: Date, allowedSkew: TimeInterval = Self.defaultAllowedSkew) {
    let seconds = now.timeIntervalSince1970
    self.now = seconds.isFinite ? Int64(max(-1e15, min(1e15, seconds)) * 1000) : 0
    self.allowedSkew = Int64(max(0, min(allowedSkew, 1e9)) * 1000)
  }

  /// The latest stamp time accepted, in milliseconds.
  public var latestStampTime: Int64 { now + allowedSkew }

  /// Why a change breaks the rules.
  public struct Violation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule: ``Code``.
    public let code: Code
    /// The kind of the record.
    public let kind: EntityKind
    /// The record's id.
    public let id: UUID
    /// The register (field, `@exists`, `@merge:…`) or metadata field at fault.
    public let field: String
    /// Why the change breaks the rule.
    public let reason: String

    /// Stable names for programs (the server's refusal codes).
    public enum Code: String, Sendable, Hashable {
      /// A value, name or date the rules refuse.
      case invalidValue = "change-invalid"
      /// A stamp later than the checker's clock plus the allowed skew.
      case clockAhead = "clock-ahead"
      /// A stamp naming another replica than the batch's, or an impossible counter.
      case foreignStamp = "stamp-invalid"
    }

    /// A message naming the record, the field and the rule.
    public var description: String { "\(kind.rawValue) \(id.lowercaseText) field '\(field)' \(reason)" }

    /// Whether the same change may pass later: only a stamp ahead of the clock, once the
    /// clock reaches it.
    public var isTemporary: Bool { code == .clockAhead }
  }

  /// The first rule `change` of `batch` breaks, or nil.
  public func violation(in change: RecordChange, of batch: ChangeBatch) -> Violation? {
    if let violation = violation(in: change, replica: batch.replica) { return violation }
    if let (field, reason) = SchemaHistory.problem(in: change, schemaVersion: batch.schemaVersion) {
      return Violation(code: .invalidValue, kind: change.kind, id: change.id, field: field, reason: reason)
    }
    return Self.identityViolation(in: change, schemaVersion: batch.schemaVersion)
  }

  /// The first schema version whose batches are held to the key rule
  /// (`identityViolation(in:schemaVersion:)`): from 4 every unique kind has a key computed
  /// from its fields (a weekly list got its key with 4). Batches of earlier builds, which
  /// keyed some names by their own rules, are joined as written.
  public static let firstKeyCheckedSchema = 4

  /// Why a change of a unique kind carries an identity that is not one, or nil: a key that
  /// is not the key its identity fields give (`Record.key(of:_:)`, the rule the stores hold
  /// every local write to), an identity field written without its key, or a key written
  /// without the fields it is computed from. A device writes a record's identity fields as
  /// one unit and pushes them together, so a device that joins them never shows a name
  /// under another name's key ("Produce" keyed "dairy" would hide Dairy).
  ///
  /// The one key that travels alone is a migration's (`Stamp.migration`): an upgrade that
  /// gave old records a key (weekly lists in schema 4) wrote it below every real write, so it
  /// never outranks a name written since.
  static func identityViolation(in change: RecordChange, schemaVersion: Int) -> Violation? {
    let schema = change.kind.schema
    guard schemaVersion >= firstKeyCheckedSchema, schema.identity.isUnique, let keyField = schema.semanticKeyField else { return nil }
    let inputs = schema.identityFields.filter { $0 != keyField }
    let present = inputs.filter { change.fields[$0] != nil }
    let key = change.fields[keyField]
    guard key != nil || !present.isEmpty else { return nil }
    func refuse(_ field: String, _ reason: String) -> Violation {
      Violation(code: .invalidValue, kind: change.kind, id: change.id, field: field, reason: reason)
    }
    guard let key else {
      return refuse(keyField, "is missing while '\(present[0])' is written: a record's key travels with the fields it is computed from")
    }
    let required = inputs.filter { schema.field(named: $0)?.isOptional != true }
    guard required.allSatisfy({ change.fields[$0] != nil }) else {
      if key.stamp.replica.isEmpty { return nil }
      return refuse(keyField, "is written without the fields it is computed from (\(inputs.joined(separator: ", ")))")
    }
    let expected = Record.key(of: change.kind) { change.fields[$0]?.value ?? .null }
    guard let expected, key.value.text == expected else {
      let held = key.value.text.map { "'\($0.prefix(80))'" } ?? "not a text"
      let wanted = expected.map { "'\($0.prefix(80))'" } ?? "no key"
      return refuse(keyField, "is \(held), but its fields give the key \(wanted) (a key is computed from its fields)")
    }
    return nil
  }

  /// The first rule `change`, pushed by `replica`, breaks, or nil.
  public func violation(in change: RecordChange, replica: String) -> Violation? {
    violation(in: change, stampsOf: replica)
  }

  /// The first rule `change` breaks, or nil; with `replica` nil, a stamp of any replica
  /// passes (a joined state's registers come from many writes: ``snapshotViolation(in:schemaVersion:)``).
  func violation(in change: RecordChange, stampsOf replica: String?) -> Violation? {
    func refuse(_ code: Violation.Code, _ field: String, _ reason: String) -> Violation {
      Violation(code: code, kind: change.kind, id: change.id, field: field, reason: reason)
    }
    if change.id == UUID.nilID { return refuse(.invalidValue, "id", "is the nil UUID") }
    for (name, date) in [("createdAt", change.createdAt), ("updatedAt", change.updatedAt)] {
      if let reason = ValueRules.dateProblem(date) { return refuse(.invalidValue, name, reason) }
      if let reason = dateAheadProblem(date) { return refuse(.clockAhead, name, reason) }
    }
    if let reason = ValueRules.textProblem(change.ownerID, .name) { return refuse(.invalidValue, "ownerID", reason) }
    let schema = change.kind.schema
    if let violation = budgetViolation(in: change) { return violation }
    func problem(_ name: String, _ register: StampedValue) -> Violation? {
      if let reason = stampProblem(register.stamp, replica: replica) { return refuse(reason.code, name, reason.text) }
      if let reason = Self.registerProblem(name, register.value, schema: schema, id: change.id) {
        return refuse(.invalidValue, name, reason)
      }
      return nil
    }
    // Every pulled change passes here: the registers are sorted (so that every checker
    // names the same first problem) only when one of them breaks a rule.
    guard change.fields.contains(where: { problem($0.key, $0.value) != nil }) else { return nil }
    return change.fields.sorted { $0.key < $1.key }.lazy.compactMap { problem($0.key, $0.value) }.first
  }

  /// Why a change costs more than `RecordBudget` allows, or nil: values of more than
  /// `RecordBudget/maximumRecordBytes` once expanded (named by its largest register), or
  /// more than `RecordBudget/maximumMergeEdgesPerChange` merge edges. Checked before any
  /// value is read, from sizes the values already know.
  func budgetViolation(in change: RecordChange) -> Violation? {
    let (bytes, edges) = Self.cost(of: change)
    if let reason = RecordBudget.recordProblem(bytes: bytes) {
      let largest = change.fields.max {
        (RecordBudget.bytes(of: $0.value.value), $1.key) < (RecordBudget.bytes(of: $1.value.value), $0.key)
      }
      return Violation(code: .invalidValue, kind: change.kind, id: change.id, field: largest?.key ?? "values", reason: reason)
    }
    if edges > RecordBudget.maximumMergeEdgesPerChange {
      return Violation(
        code: .invalidValue, kind: change.kind, id: change.id, field: "@merge",
        reason: "carries \(edges) merge edges; a change may carry at most \(RecordBudget.maximumMergeEdgesPerChange)")
    }
    return nil
  }

  /// What a change costs once expanded: its register names' and values' bytes
  /// (`RecordBudget.bytes(of:)`), and its merge edges.
  static func cost(of change: RecordChange) -> (bytes: Int, edges: Int) {
    var bytes = 0, edges = 0
    for (name, register) in change.fields {
      bytes += name.utf8.count + RecordBudget.bytes(of: register.value)
      if name.hasPrefix(RecordChange.mergeFieldPrefix) { edges += 1 }
    }
    return (bytes, edges)
  }

  /// Why a register's value cannot be held, or nil.
  static func registerProblem(_ name: String, _ value: FieldValue, schema: EntitySchema, id: UUID) -> String? {
    switch name {
    case RecordChange.existsField:
      if case .bool = value { return nil }
      return "must be a flag, not \(value.kindName)"
    case RecordChange.deletedField:
      guard case .timestamp(let date) = value else { return "must be a date, not \(value.kindName)" }
      return ValueRules.dateProblem(date)
    case RecordChange.redirectField:
      guard case .reference = value else { return "must be an id, not \(value.kindName)" }
      return nil
    default:
      if name.hasPrefix(RecordChange.mergeFieldPrefix) {
        let named = UUID(uuidString: String(name.dropFirst(RecordChange.mergeFieldPrefix.count)))
        guard let named, case .reference(let keeper) = value, keeper == named else {
          return "is not a merge edge: '@merge:<id>' holding that id"
        }
        return keeper == id ? "merges the record into itself" : nil
      }
      guard let field = schema.field(named: name) else {
        return "is not a field of \(schema.kind.rawValue) (\(name.count > 60 ? String(name.prefix(60)) + "…" : name))"
      }
      return ValueRules.problem(value, for: field)
    }
  }

  /// Why a stamp cannot be accepted from `replica`, or nil.
  func stampProblem(_ stamp: Stamp, replica: String?) -> (code: Violation.Code, text: String)? {
    if stamp.replica.isEmpty {
      guard stamp == .migration || stamp == .migrationMerge else {
        return (.foreignStamp, "has a stamp with no replica that is not a migration's (\(stamp))")
      }
      return nil
    }
    if let replica, stamp.replica != replica {
      return (.foreignStamp, "has a stamp of replica '\(stamp.replica.prefix(40))', not of the batch's replica '\(replica.prefix(40))'")
    }
    if replica == nil, let problem = Self.identifierProblem(stamp.replica) {
      return (.foreignStamp, "has a stamp whose replica id \(problem)")
    }
    guard (0...Stamp.maximumCounter).contains(stamp.counter) else {
      return (.foreignStamp, "has a stamp counter \(stamp.counter) outside 0…\(Stamp.maximumCounter)")
    }
    guard stamp.time >= Stamp.earliestTime else {
      return (.foreignStamp, "has a stamp time \(stamp.time) ms before the earliest a write may carry (\(Stamp.earliestTime) ms)")
    }
    if stamp.time > latestStampTime {
      let ahead = stamp.time.subtractingReportingOverflow(now)
      let seconds = ahead.overflow ? "an unbounded time" : "\(ahead.partialValue / 1000) s"
      return (
        .clockAhead,
        "has a stamp \(seconds) ahead of this clock (more than the \(allowedSkew / 1000) s allowed): check the writing device's clock"
      )
    }
    return nil
  }

  /// Why a change's creation or update date lies too far ahead, or nil: after
  /// ``latestStampTime`` (dates are checked after `ValueRules/dateProblem(_:)`, so finite).
  func dateAheadProblem(_ date: Date) -> String? {
    let milliseconds = date.timeIntervalSince1970 * 1000
    guard milliseconds > Double(latestStampTime) else { return nil }
    let ahead = Int64(((milliseconds - Double(now)) / 1000).rounded(.down))
    return "is \(ahead) s ahead of this clock (more than the \(allowedSkew / 1000) s allowed): check the writing device's clock"
  }

  /// Why a batch's own header cannot be accepted, or nil: ids are 1–200 characters with
  /// no control characters, the replica is not empty, and its size keeps ``sizeProblem(_:)``.
  public static func headerProblem(_ batch: ChangeBatch) -> String? {
    if let reason = identifierProblem(batch.id) { return "the batch id \(reason)" }
    if let reason = identifierProblem(batch.replica) { return "the replica id \(reason)" }
    return sizeProblem(batch)
  }

  /// Why a batch costs more than a batch may, or nil: at most ``maximumChanges`` changes,
  /// `RecordBudget/maximumBatchBytes` of values once expanded and
  /// `RecordBudget/maximumMergeEdgesPerBatch` merge edges. Counted from sizes the values
  /// already know, before any of them is read.
  public static func sizeProblem(_ batch: ChangeBatch) -> String? {
    if let problem = countProblem(batch.changes.count) { return problem }
    var bytes = 0, edges = 0
    for change in batch.changes {
      let cost = cost(of: change)
      bytes += cost.bytes
      edges += cost.edges
      if bytes > RecordBudget.maximumBatchBytes {
        return "its values hold more than \(RecordBudget.maximumBatchBytes) bytes once expanded (the most a batch may hold)"
      }
    }
    if edges > RecordBudget.maximumMergeEdgesPerBatch {
      return "it carries \(edges) merge edges; a batch may carry at most \(RecordBudget.maximumMergeEdgesPerBatch)"
    }
    return nil
  }

  /// Why a batch of `changes` changes is too large, or nil (at most ``maximumChanges``).
  public static func countProblem(_ changes: Int) -> String? {
    changes > maximumChanges ? "it holds \(changes) changes; a batch may hold at most \(maximumChanges)" : nil
  }

  /// Why a batch or replica id is not one: 1–200 characters and at most
  /// ``maximumIdentifierBytes`` bytes, no control characters.
  public static func identifierProblem(_ id: String) -> String? {
    if id.isEmpty { return "is empty" }
    let bytes = id.utf8.count
    if bytes > maximumIdentifierBytes { return "is \(bytes) bytes long; the limit is \(maximumIdentifierBytes)" }
    return ValueRules.textProblem(id, .name)
  }

  /// The most UTF-8 bytes a batch or replica id may have: 200 characters of up to four
  /// bytes each, well inside PostgreSQL's index entry limit (2,704 bytes) for the server's
  /// indexes on batch ids and replicas.
  public static let maximumIdentifierBytes = 800

  /// Why a text cannot be a name (`ValueRules/TextRule/name`), or nil: for the names
  /// the server keeps (households, devices), which reach it without a `Model` of their own.
  public static func nameProblem(_ name: String) -> String? { ValueRules.textProblem(name, .name) }
}

extension UUID {
  /// The nil UUID (all zero), which no record has.
  static let nilID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
