import Foundation
import Model
import Persistence

/// Converts the sync metadata of a store written by an earlier version (per-record field
/// stamps, redirects, and the bookkeeping its merge kept: repaired values, cleared
/// relationships, pending folds) into register states, once, keeping the pulled and
/// pushed positions so nothing is pulled or pushed again.
///
/// Each stamped field becomes a register holding the value as written (a repaired value's
/// original when its stamp still matches) with its stamp; a redirect becomes a merge edge;
/// a tombstone becomes a delete unless it was a merge's (it has a redirect) or a repair's
/// (the `@repaired` marker): the view hides such records by itself now.
enum LegacyConversion {
  static let stampsPrefix = "sync.stamps/"
  static let redirectPrefix = "sync.redirect/"
  static let obsoletePrefixes = ["sync.stamps/", "sync.redirect/", "sync.dangling/", "sync.repaired/", "sync.folds/"]

  /// Converts when the store is not converted yet, and moves the states of a store that
  /// kept them in its metadata table (formats 2 to 4) into the store's sync states; then
  /// puts texts stored before they were kept in NFC into NFC (`CanonicalTextConversion`)
  /// and indexes each state under the key its fields give (`KeyIndexConversion`).
  /// Returns the records converted, whose views are computed again.
  /// - Parameter dated: a row's date as a state holds it (`Stamper.onAuthorityClock`).
  static func convertIfNeeded(_ writer: any StoreWriter, _ states: StateStore, dated: (Date) -> Date) throws -> Set<RecordKey> {
    let format = try writer.metadata(forKey: ReplicaKeys.format)
    var converted: Set<RecordKey> = []
    if format != ReplicaKeys.currentFormat {
      // The states first: what `convert` then sets goes through the state store, which
      // reads them where they are kept now.
      try moveStates(writer)
      converted = ["2", "3", "4"].contains(format) ? [] : try convert(writer, states, dated: dated)
      try writer.setMetadata(ReplicaKeys.currentFormat, forKey: ReplicaKeys.format)
    }
    converted.formUnion(try CanonicalTextConversion.convertIfNeeded(writer, states))
    let rekeyed = try KeyIndexConversion.convertIfNeeded(writer)
    if !rekeyed.isEmpty { states.forgetHolders() }
    return converted.union(rekeyed)
  }

  /// Formats 2 to 4 kept each state as a metadata entry, `sync.state/<kind>/<id>`; 3 and
  /// 4 kept the records holding each key in entries of their own (`sync.key/…`,
  /// `sync.keys/…`). Each state is moved, as it was written, into the store's sync states
  /// with the key it holds, which the store indexes, and the key entries are removed.
  /// A state that cannot be read is moved too, without a key, as the index skipped it.
  private static func moveStates(_ writer: any StoreWriter) throws {
    let names = try writer.metadataKeys(withPrefix: formerStatePrefix)
    for start in stride(from: 0, to: names.count, by: 1_000) {
      let chunk = Array(names[start..<min(start + 1_000, names.count)])
      let texts = try writer.metadata(forKeys: chunk)
      for name in chunk {
        guard let text = texts[name] else { continue }
        if let record = ReplicaKeys.parsePath(name, from: formerStatePrefix.utf8.count) {
          let key = StateCoding.decode(text).flatMap(SharedKey.init)?.key
          try writer.setSyncState(text, key: key, kind: record.kind, id: record.id)
        }
        try writer.setMetadata(nil, forKey: name)
      }
    }
    for prefix in formerKeyPrefixes {
      for name in try writer.metadataKeys(withPrefix: prefix) { try writer.setMetadata(nil, forKey: name) }
    }
  }

  /// Where formats 2 to 4 kept states, and 3 and 4 the records holding each key.
  static let formerStatePrefix = "sync.state/"
  static let formerKeyPrefixes = ["sync.key/", "sync.keys/"]

  /// Registers from an earlier version's stamps and redirects.
  private static func convert(_ writer: any StoreWriter, _ states: StateStore, dated: (Date) -> Date) throws -> Set<RecordKey> {
    var converted = Set<RecordKey>()
    let stampKeys = try writer.metadataKeys(withPrefix: stampsPrefix)
    let redirectKeys = try writer.metadataKeys(withPrefix: redirectPrefix)
    guard !stampKeys.isEmpty || !redirectKeys.isEmpty else { return [] }
    let stampTexts = try writer.metadata(forKeys: stampKeys)
    let redirects = try writer.metadata(forKeys: redirectKeys)
    for key in stampKeys {
      guard let record = ReplicaKeys.parsePath(key, from: stampsPrefix.utf8.count), let text = stampTexts[key],
        let row = try writer.record(record.kind, id: record.id)
      else { continue }
      let stamps = StampCoding.decode(text)
      let repaired = try repairedValues(record, writer)
      var state = try states.state(record) ?? RecordState(row, dated: dated)
      for field in record.kind.schema.fields {
        guard let stamp = stamps[field.name] else { continue }
        let value = repaired[field.name].flatMap { $0.stamp == stamp ? $0.value : nil } ?? row[field.name]
        state.write(field.name, StampedValue(value: value, stamp: stamp))
      }
      let redirect = redirects[redirectPrefix + ReplicaKeys.path(record)].flatMap { UUID(hyphenatedHex: $0) }
      if let redirect {
        state.addEdge(to: redirect, stamp: stamps[RecordChange.redirectField] ?? .migration)
        try states.noteEdge(record.kind, loser: record.id, keeper: redirect)
      } else if !row.meta.isLive, let deleted = stamps[RecordChange.deletedField], stamps["@repaired"] == nil {
        state.write(RecordState.existsField, StampedValue(value: .bool(false), stamp: deleted))
      }
      try states.set(state)
      converted.insert(record)
    }
    for key in redirectKeys {
      guard let record = ReplicaKeys.parsePath(key, from: redirectPrefix.utf8.count), !converted.contains(record),
        let keeper = redirects[key].flatMap({ UUID(hyphenatedHex: $0) }), let row = try writer.record(record.kind, id: record.id)
      else { continue }
      var state = try states.state(record) ?? RecordState(row, dated: dated)
      state.addEdge(to: keeper, stamp: .migration)
      try states.noteEdge(record.kind, loser: record.id, keeper: keeper)
      try states.set(state)
      converted.insert(record)
    }
    for prefix in obsoletePrefixes {
      for key in try writer.metadataKeys(withPrefix: prefix) { try writer.setMetadata(nil, forKey: key) }
    }
    return converted
  }

  /// A field value as an earlier version wrote it before a repair replaced it.
  private struct RepairedValue: Decodable {
    let value: FieldValue
    let stamp: Stamp?
  }

  private static func repairedValues(_ record: RecordKey, _ reader: any StoreReader) throws -> [String: RepairedValue] {
    guard let text = try reader.metadata(forKey: "sync.repaired/" + ReplicaKeys.path(record)) else { return [:] }
    return (try? JSONDecoder().decode([String: RepairedValue].self, from: Data(text.utf8))) ?? [:]
  }
}
