import Foundation

/// Standard output and error, written at once (not held in a buffer when they are a pipe
/// or a file), so the list appears as soon as it changes.
enum Output {
  static func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
  static func complain(_ text: String) { FileHandle.standardError.write(Data(("error: " + text + "\n").utf8)) }
}

/// Standard input's lines as an async sequence, read on a thread of their own (reading
/// blocks, and must not hold up the tasks that show the list).
enum Input {
  static func lines() -> AsyncStream<String> {
    AsyncStream { continuation in
      Thread.detachNewThread {
        while let line = readLine() { continuation.yield(line) }
        continuation.finish()
      }
    }
  }
}
