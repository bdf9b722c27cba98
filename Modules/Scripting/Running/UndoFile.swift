import Foundation
import Model
import Repositories

/// A batch script's undo file (`forager-batch --undo-file F`): what `undo --file F` writes
/// back to put every record the script changed as it was before the script ran.
///
/// The file is JSON: per device of the session, each record the script changed with how it
/// was before (live with its fields, or not live) and how the script left it, so that
/// `undo --file` can refuse when a later change rewrote the record. It is rewritten after
/// every command that changed a record (a temporary file renamed over it), so a script
/// killed midway leaves the undo of the commands that finished.
///
/// ```swift
/// let file = try UndoFile(path: "undo.json", force: false)
/// session.undoFile = file
/// // … run the script; each command that changes a record rewrites the file …
/// ```
public final class UndoFile {
  /// The file's path.
  public let path: String
  /// The script's name, written into the file.
  public var scriptName = ""

  /// The file `undo --file` reads: its format and version first.
  struct Document: Codable, Equatable {
    static let formatName = "forager-undo"
    static let currentVersion = 1

    var format: String
    var version: Int
    var script: String
    var commands: [String]
    var devices: [DeviceRecords]
  }

  /// One device's records.
  struct DeviceRecords: Codable, Equatable {
    var device: String
    var records: [Entry]
  }

  /// One record: how it was before the script and how the script left it.
  struct Entry: Codable, Equatable {
    var kind: String
    var id: UUID
    var before: Shown
    var after: Shown
  }

  /// A record as it showed: live with its fields, or not live.
  struct Shown: Codable, Equatable {
    var live: Bool
    var fields: [String: FieldValue]

    init(live: Bool, fields: [String: FieldValue]) {
      self.live = live
      self.fields = fields
    }

    init(_ record: Record?) {
      guard let record, record.meta.isLive else {
        self.init(live: false, fields: [:])
        return
      }
      self.init(live: true, fields: Dictionary(uniqueKeysWithValues: record.kind.schema.fields.map { ($0.name, record[$0.name]) }))
    }
  }

  /// The largest undo file `undo --file` reads.
  static let maximumBytes = 64 << 20

  /// Checks that the undo file can be written at `path` before a script runs.
  /// - Parameters:
  ///   - path: where the file goes.
  ///   - force: replace a file already there (else refused).
  /// - Throws: ``UndoFileError`` naming the path and why: it exists (without `force`), is a
  ///   directory, or its directory is missing or not writable.
  public init(path: String, force: Bool) throws(UndoFileError) {
    self.path = path
    var isDirectory: ObjCBool = false
    let manager = FileManager.default
    if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { throw UndoFileError(path: path, reason: "it is a directory") }
      if !force { throw UndoFileError(path: path, reason: "the file exists; pass --force to replace it") }
    }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw UndoFileError(path: path, reason: "its directory '\(directory)' does not exist")
    }
    guard manager.isWritableFile(atPath: directory) else {
      throw UndoFileError(path: path, reason: "its directory '\(directory)' is not writable")
    }
  }

  /// Writes the undo of `steps` (oldest first): each record as before the oldest step that
  /// changed it, and as the newest left it; a temporary file renamed over the path.
  func write(_ steps: [UndoStep]) throws(UndoFileError) {
    var devices: [DeviceRecords] = []
    var index: [String: (device: Int, records: [String: Int])] = [:]
    for step in steps {
      let name = step.device.name
      if index[name] == nil {
        index[name] = (devices.count, [:])
        devices.append(DeviceRecords(device: name, records: []))
      }
      for change in step.changes {
        let key = "\(change.after.kind.rawValue)/\(change.after.id.lowercaseText)"
        let deviceIndex = index[name]?.device ?? 0
        if let recordIndex = index[name]?.records[key] {
          devices[deviceIndex].records[recordIndex].after = Shown(change.after)
        } else {
          index[name]?.records[key] = devices[deviceIndex].records.count
          devices[deviceIndex].records.append(
            Entry(kind: change.after.kind.rawValue, id: change.after.id, before: Shown(change.before), after: Shown(change.after)))
        }
      }
    }
    let document = Document(
      format: Document.formatName, version: Document.currentVersion, script: scriptName, commands: steps.map(\.command),
      devices: devices)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      let data = try encoder.encode(document)
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw UndoFileError(path: path, reason: "it cannot be written (\((error as NSError).localizedDescription))")
    }
  }

  /// Reads and checks an undo file: its format and version, each record's kind, and each
  /// field's name and value against the schema and ``ValueRules``.
  static func read(_ path: String) throws(UndoFileError) -> Document {
    let data: Data
    do {
      let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
      guard size <= maximumBytes else { throw UndoFileError(path: path, reason: "it is larger than \(maximumBytes >> 20) MB") }
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let error as UndoFileError {
      throw error
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
      throw UndoFileError(path: path, reason: reason)
    }
    let document: Document
    do {
      document = try JSONDecoder().decode(Document.self, from: data)
    } catch {
      throw UndoFileError(path: path, reason: "it is not an undo file written by forager-batch --undo-file")
    }
    guard document.format == Document.formatName else {
      throw UndoFileError(path: path, reason: "its format is '\(document.format)', not '\(Document.formatName)'")
    }
    guard document.version == Document.currentVersion else {
      throw UndoFileError(path: path, reason: "its version \(document.version) is not \(Document.currentVersion), which this build reads")
    }
    for device in document.devices {
      for (position, entry) in device.records.enumerated() {
        let place = "device '\(device.device)', record \(position + 1)"
        guard let kind = EntityKind(rawValue: entry.kind) else {
          throw UndoFileError(path: path, reason: "\(place): unknown kind '\(entry.kind)'")
        }
        for shown in [entry.before, entry.after] {
          for (name, value) in shown.fields {
            guard let field = kind.schema.field(named: name) else {
              throw UndoFileError(path: path, reason: "\(place): \(kind.rawValue) has no field '\(name)'")
            }
            if let problem = ValueRules.problem(value, for: field) {
              throw UndoFileError(path: path, reason: "\(place): field '\(name)': \(problem)")
            }
          }
        }
      }
    }
    return document
  }
}

/// An undo file that cannot be written or read: its path and why.
public struct UndoFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file's path.
  public let path: String
  /// Why, for a person.
  public let reason: String

  /// "undo file 'PATH': REASON".
  public var description: String { "undo file '\(path)': \(reason)" }
}
