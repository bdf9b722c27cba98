public import Foundation

/// Reading and writing kitchen archive files: the bytes of a ``KitchenArchiveDocument``.
///
/// ```swift
/// let data = try KitchenArchive.encode(try library.exportKitchen(schemaVersion: 5))
/// let document = try KitchenArchive.decode(data)
/// let summary = try library.importKitchen(document)
/// ```
public enum KitchenArchive {
  /// The document as pretty-printed JSON with sorted keys and a final newline: the same
  /// kitchen gives the same bytes (but for `exportedAt`).
  public static func encode(_ document: KitchenArchiveDocument) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(document) + Data("\n".utf8)
  }

  /// The document in `data`, refused when larger or holding more records than `limits`
  /// allow, of another format or a newer version, or not JSON of the archive's shape.
  /// - Throws: ``KitchenArchiveError``.
  public static func decode(_ data: Data, limits: KitchenArchiveLimits = .standard) throws(KitchenArchiveError) -> KitchenArchiveDocument {
    guard data.count <= limits.maximumBytes else { throw .tooLarge(bytes: data.count, limit: limits.maximumBytes) }
    let decoder = JSONDecoder()
    decoder.userInfo[KitchenArchiveLimits.userInfoKey] = limits
    do {
      return try decoder.decode(KitchenArchiveDocument.self, from: data)
    } catch let error as KitchenArchiveError {
      throw error
    } catch let error as DecodingError {
      throw .brokenJSON(describe(error))
    } catch {
      throw .brokenJSON("\(error)")
    }
  }

  /// The document in the file at `path`; its size is checked before it is read.
  /// - Throws: ``KitchenArchiveError``, or the file system's error when it cannot be read.
  public static func read(path: String, limits: KitchenArchiveLimits = .standard) throws -> KitchenArchiveDocument {
    let size = try URL(fileURLWithPath: path).resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    guard size <= limits.maximumBytes else { throw KitchenArchiveError.tooLarge(bytes: size, limit: limits.maximumBytes) }
    return try decode(try Data(contentsOf: URL(fileURLWithPath: path)), limits: limits)
  }

  /// A decoding error as one line: where in the document, and what was wrong.
  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let parts = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }
      return parts.isEmpty ? "" : " at " + parts.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
    switch error {
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return (underlying ?? context.debugDescription) + path(context)
    case .keyNotFound(let key, let context):
      return "'\(key.stringValue)' is missing" + path(context)
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return context.debugDescription + path(context)
    @unknown default:
      return "\(error)"
    }
  }
}
