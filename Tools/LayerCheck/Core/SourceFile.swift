import Foundation

/// A Swift source file: its path as it should appear in diagnostics, and its text.
public struct SourceFile: Sendable, Equatable {
  /// The path printed in `path:line:column: error: …` lines.
  public var path: String
  /// The file's contents.
  public var text: String

  public init(path: String, text: String) {
    self.path = path
    self.text = text
  }

  /// Reads a file from disk.
  ///
  /// - Throws: `LayerCheckError.unreadable` when the file cannot be read as UTF-8.
  public static func read(_ path: String) throws -> SourceFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw LayerCheckError.unreadable(path)
    }
    return SourceFile(path: path, text: String(decoding: data, as: UTF8.self))
  }

  /// Reads every `.swift` file under the given files and directories, in a stable order.
  ///
  /// Directories are walked recursively; hidden entries (`.build`, `.git`) are skipped.
  /// - Throws: `LayerCheckError` when a path does not exist or a file cannot be read.
  public static func readAll(_ paths: [String]) throws -> [SourceFile] {
    try swiftFilePaths(in: paths).map(read)
  }

  /// The paths of every `.swift` file under the given files and directories, sorted.
  ///
  /// - Throws: `LayerCheckError.missing` when a path does not exist.
  public static func swiftFilePaths(in paths: [String]) throws -> [String] {
    let fileManager = FileManager.default
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw LayerCheckError.missing(path)
      }
      guard isDirectory.boolValue else {
        result.append(path)
        continue
      }
      let root = URL(fileURLWithPath: path)
      guard
        let enumerator = fileManager.enumerator(
          at: root,
          includingPropertiesForKeys: [.isRegularFileKey],
          options: [.skipsHiddenFiles]
        )
      else { throw LayerCheckError.missing(path) }
      var found: [String] = []
      for case let url as URL in enumerator where url.pathExtension == "swift" {
        let relative = url.path.dropFirst(root.path.count).drop { $0 == "/" }
        found.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
      }
      result += found.sorted()
    }
    return result
  }
}

/// Why the checker could not run at all (as opposed to finding violations).
public enum LayerCheckError: Error, Equatable, CustomStringConvertible {
  case missing(String)
  case unreadable(String)
  case malformedPackage(String)
  case noEntityTypes(String)
  case noStoreWriter(String)
  case unknownFrontEnd(String)

  public var description: String {
    switch self {
    case .missing(let path):
      "no such file or directory: \(path)"
    case .unreadable(let path):
      "cannot read \(path)"
    case .malformedPackage(let reason):
      "cannot read the package description: \(reason)"
    case .noEntityTypes(let directories):
      "found no entity types in \(directories) (types whose inheritance clause names Entity); "
        + "pass the Model module's directory"
    case .noStoreWriter(let directories):
      "found no `protocol StoreWriter` with methods in \(directories); pass the Persistence module's directory"
    case .unknownFrontEnd(let name):
      "'\(name)' is not a front end in the layer table (Tools/LayerCheck/Core/AllowedEdges.swift)"
    }
  }
}
