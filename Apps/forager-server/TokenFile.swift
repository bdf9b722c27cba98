import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where `issue-token --output` puts a token's secret, written so that a token is never
/// live without its file, nor a file left holding a token that is not live.
///
/// The secret is first written to a hidden file beside the output, created with mode 600
/// (never readable by others, not even for a moment); the token is stored; then the file
/// is moved into place. A failure before the move removes the hidden file, and the command
/// revokes the token when the move itself fails.
struct TokenFile: Sendable {
  let path: String
  let staging: String

  /// Checks that the output's directory exists and that the output is not a directory.
  /// - Throws: a message naming the path that is wrong.
  init(path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw TokenFileError("--output \(path): the directory \(directory) does not exist")
    }
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw TokenFileError("--output \(path) is a directory; name a file")
    }
    self.path = url.path
    self.staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)").path
  }

  /// Writes the secret to the hidden staging file (mode 600).
  func stage(_ secret: String) throws {
    let descriptor = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw TokenFileError("cannot create \(staging): \(String(cString: strerror(errno)))") }
    let bytes = Array((secret + "\n").utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor)
    close(descriptor)
    guard written == bytes.count, synced == 0 else {
      discard()
      throw TokenFileError("cannot write \(staging): \(String(cString: strerror(errno)))")
    }
  }

  /// Moves the staged file to the output (replacing a file there).
  func commit() throws {
    guard rename(staging, path) == 0 else {
      let reason = String(cString: strerror(errno))
      discard()
      throw TokenFileError("cannot move the token into \(path): \(reason)")
    }
  }

  /// Removes the staged file, if any.
  func discard() { unlink(staging) }
}

/// Why a token file could not be written: printed as the command's error.
struct TokenFileError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
