public import Foundation
public import Model
import Sync

/// Makes hostile batches from honest ones, reproducibly from a seed: byte-level mutations
/// (bit flips, extreme varints and floats, inserted, deleted, repeated and spliced ranges,
/// truncation) that mostly test the decoder, and structured ones (a decoded batch with a
/// NaN or far date, an end-of-time stamp, another replica's stamp, a huge or control
/// character text, an unknown field, a value of the wrong type, a merge edge to itself)
/// that reach the pull's checks and the join.
public struct BatchMutator {
  public var random: SeededGenerator
  let seeds: [Data]

  public init(seed: UInt64, seeds: [Data]) {
    random = SeededGenerator(seed: seed)
    self.seeds = seeds.isEmpty ? [Data([0x00, 0x46, 0x42, 0x01])] : seeds
  }

  /// The next input: a seed, mutated one to four times.
  public mutating func next() -> Data {
    var bytes = [UInt8](seeds[Int(random.next() % UInt64(seeds.count))])
    for _ in 0...(random.next() % 4) {
      if random.next() % 3 == 0, let batch = try? ChangeBatchCoding.decode(Data(bytes)) {
        bytes = [UInt8](ChangeBatchCoding.encode(structured(batch)))
      } else {
        mutateBytes(&bytes)
      }
    }
    return Data(bytes)
  }

  /// One structured mutation of `bytes` when they decode as a batch, else nil: libFuzzer's
  /// custom mutator (`forager-fuzz`) uses it beside its own byte mutations, so coverage
  /// guides inputs that reach the pull's checks and the join, not only the decoder.
  public mutating func structuredMutation(of bytes: Data) -> Data? {
    guard let batch = try? ChangeBatchCoding.decode(bytes) else { return nil }
    return ChangeBatchCoding.encode(structured(batch))
  }

  private mutating func index(_ count: Int) -> Int { count == 0 ? 0 : Int(random.next() % UInt64(count)) }

  mutating func mutateBytes(_ bytes: inout [UInt8]) {
    let position = index(bytes.count)
    switch random.next() % 9 {
    case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << (random.next() % 8))
    case 1 where !bytes.isEmpty: bytes[position] = [0x00, 0x01, 0x7F, 0x80, 0xFF][index(5)]
    case 2: bytes.insert(contentsOf: (0..<(1 + index(8))).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: position)
    case 3 where !bytes.isEmpty: bytes.removeSubrange(position..<min(bytes.count, position + 1 + index(16)))
    case 4 where !bytes.isEmpty:
      let end = min(bytes.count, position + 1 + index(32))
      bytes.insert(contentsOf: bytes[position..<end], at: end)
    case 5:
      let patterns: [UInt64] = [Double.nan.bitPattern, Double.infinity.bitPattern, (-Double.infinity).bitPattern, .max, 0]
      let pattern = withUnsafeBytes(of: patterns[index(patterns.count)].littleEndian) { Array($0) }
      let start = min(position, max(0, bytes.count - 8))
      bytes.replaceSubrange(start..<min(bytes.count, start + 8), with: pattern)
    case 6: bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], at: position)
    case 7:
      let other = seeds[index(seeds.count)]
      let from = index(other.count)
      bytes = Array(bytes[..<position]) + Array(other[(other.startIndex + from)...])
    default: bytes.removeSubrange(position..<bytes.count)
    }
  }

  mutating func structured(_ batch: ChangeBatch) -> ChangeBatch {
    guard !batch.changes.isEmpty else { return batch }
    var changes = batch.changes
    let at = index(changes.count)
    let change = changes[at]
    var fields = change.fields
    var createdAt = change.createdAt
    let anyField = fields.keys.sorted().first ?? "displayName"
    let stamp = fields[anyField]?.stamp ?? Stamp(time: 0, counter: 0, replica: batch.replica)
    let value = fields[anyField]?.value ?? .null
    switch random.next() % 14 {
    case 0: createdAt = [Date(timeIntervalSince1970: .nan), .distantFuture, Date(timeIntervalSince1970: 1e18)][index(3)]
    case 1: fields[anyField] = StampedValue(value: value, stamp: Stamp(time: .max, counter: .max, replica: stamp.replica))
    case 2: fields[anyField] = StampedValue(value: value, stamp: Stamp(time: stamp.time, counter: 0, replica: "someone-else"))
    case 3: fields[anyField] = StampedValue(value: .text(String(repeating: "x", count: 1 + index(300_000))), stamp: stamp)
    case 4: fields[anyField] = StampedValue(value: .text("a\u{1B}[2J\u{202E}b"), stamp: stamp)
    case 5: fields["no-such-field"] = StampedValue(value: .integer(1), stamp: stamp)
    case 6:
      let odd: [FieldValue] = [.null, .integer(.min), .real(.nan), .bool(true), .referenceList([change.id])]
      fields[anyField] = StampedValue(value: odd[index(odd.count)], stamp: stamp)
    case 7: fields[RecordChange.mergeFieldPrefix + change.id.lowercaseText] = StampedValue(value: .reference(change.id), stamp: stamp)
    case 8:
      let later = Stamp(time: stamp.time &+ 1, counter: stamp.counter, replica: stamp.replica)
      fields[RecordChange.existsField] = StampedValue(value: .bool(random.next() % 2 == 0), stamp: later)
    case 9:
      // The same long paragraph 2,000 times: small on the wire, megabytes once expanded.
      let paragraph = String(repeating: "Stir well. ", count: 1 + index(900))
      fields[anyField] = StampedValue(value: .textList(Array(repeating: paragraph, count: 2_000)), stamp: stamp)
    case 10:
      let bottom = [Int64.min, Int64.min + 2, Stamp.earliestTime - 1, Stamp.earliestTime][index(4)]
      fields[anyField] = StampedValue(value: value, stamp: Stamp(time: bottom, counter: 0, replica: stamp.replica))
    case 11:
      // A stamp just within or just past the allowed skew of a clock near the stamp's own.
      let ahead = Int64(ChangeRules.defaultAllowedSkew * 1000) + Int64(index(2_001)) - 1_000
      fields[anyField] = StampedValue(value: value, stamp: Stamp(time: stamp.time &+ ahead, counter: stamp.counter, replica: stamp.replica))
    case 12:
      for _ in 0..<(1 + index(40)) {
        let keeper = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, UInt8(index(256)), UInt8(index(256))))
        fields[RecordChange.mergeFieldPrefix + keeper.lowercaseText] = StampedValue(value: .reference(keeper), stamp: stamp)
      }
    default: changes.append(changes[at])
    }
    changes[at] = RecordChange(
      kind: change.kind, id: change.id, createdAt: createdAt, updatedAt: change.updatedAt, ownerID: change.ownerID,
      sharingScope: change.sharingScope, fields: fields)
    return ChangeBatch(id: batch.id, replica: batch.replica, schemaVersion: batch.schemaVersion, changes: changes)
  }
}
