import Foundation
package import Model

extension FieldValue {
  /// The JSON text a list value is stored as: `["a","b"]`. Other values give "".
  package var storageText: String {
    switch self {
    case .textList(let values): return Self.jsonArray(values)
    case .referenceList(let ids): return Self.jsonArray(ids.map { $0.uuidString.lowercased() })
    default: return ""
    }
  }

  package static func jsonArray(_ strings: [String]) -> String {
    guard let data = try? JSONEncoder.storage.encode(strings) else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }

  package static func decodeJSONArray(_ text: String) -> [String]? {
    try? JSONDecoder().decode([String].self, from: Data(text.utf8))
  }
}

extension JSONEncoder {
  fileprivate static let storage: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }()
}
