import Foundation
import Model
import Persistence

/// The text a record's state is kept in: the compact binary form of a one-change batch
/// (`ChangeBatchCoding`), in base64.
enum StateCoding {
  static func encode(_ state: RecordState) -> String {
    ChangeBatchCoding.encode(ChangeBatch(id: "", replica: "", schemaVersion: 0, changes: [state.wholeChange])).base64EncodedString()
  }

  static func decode(_ text: String) -> RecordState? {
    guard let data = Data(base64Encoded: text), let change = try? ChangeBatchCoding.decode(data).changes.first else { return nil }
    return RecordState(change)
  }
}
