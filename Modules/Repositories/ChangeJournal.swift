import Foundation
public import Model
public import Persistence
import Synchronization

/// What a run of repository calls changed, record by record: each record as it was before
/// the first write to it and as it is after. A front end keeps one per command to undo it
/// (``Library/undoReverts(of:)``).
///
/// A ``Library`` given a journal notes every record its writes touch while the journal is
/// recording; writes of other libraries and of sync are not noted.
///
/// ```swift
/// let journal = ChangeJournal()
/// let library = Library(store: store, journal: journal)
/// journal.start()
/// _ = try library.categories.rename("Produce", to: "Vegetables")
/// let changes = try journal.finish(reading: store)
/// ```
public final class ChangeJournal: Sendable {
  /// One record's change: nil before for a record the writes created.
  public struct Change: Sendable, Hashable {
    /// The record as it was before (nil: it did not exist).
    public let before: Record?
    /// The record as it is after.
    public let after: Record
  }

  private struct Recording {
    var isOn = false
    var order: [RecordAddress] = []
    var before: [RecordAddress: Record?] = [:]
  }

  struct RecordAddress: Hashable {
    let kind: EntityKind
    let id: UUID
  }

  private let recording = Mutex(Recording())

  /// An empty journal, not recording.
  public init() {}

  /// Starts noting (forgetting anything noted before).
  public func start() {
    recording.withLock { $0 = Recording(isOn: true) }
  }

  /// Stops noting and returns what changed since ``start()``, in the order first written:
  /// each record read again from `store`, those that ended as they began left out (a
  /// write whose transaction failed).
  public func finish(reading store: any Store) throws -> [Change] {
    let noted = recording.withLock { recording -> Recording in
      defer { recording = Recording() }
      return recording
    }
    guard !noted.order.isEmpty else { return [] }
    return try store.read { reader in
      try noted.order.compactMap { address -> Change? in
        guard let after = try reader.record(address.kind, id: address.id) else { return nil }
        let before = noted.before[address] ?? nil
        return before == after ? nil : Change(before: before, after: after)
      }
    }
  }

  /// Notes the record before a write, once per recording.
  func noteBeforeWrite(_ kind: EntityKind, _ id: UUID, reading reader: any StoreReader) throws {
    let address = RecordAddress(kind: kind, id: id)
    let wanted = recording.withLock { $0.isOn && $0.before[address] == nil }
    guard wanted else { return }
    let record = try reader.record(kind, id: id)
    recording.withLock { recording in
      guard recording.before[address] == nil else { return }
      recording.before[address] = .some(record)
      recording.order.append(address)
    }
  }
}

extension Library {
  /// The reverts that put the records of `changes` back as they were before, newest change
  /// first undone last: a record created is deleted, a record deleted comes back, fields
  /// written get their old values. Apply them with ``revert(_:)``.
  public static func undoReverts(of changes: [ChangeJournal.Change]) -> [RecordRevert] {
    changes.map { change in
      guard let before = change.before, before.meta.isLive else {
        return RecordRevert(kind: change.after.kind, id: change.after.id, fields: [:], liveness: .deleted)
      }
      let fields = Dictionary(uniqueKeysWithValues: before.kind.schema.fields.map { ($0.name, before[$0.name]) })
      return RecordRevert(kind: before.kind, id: before.id, fields: fields, liveness: .live)
    }
  }
}
