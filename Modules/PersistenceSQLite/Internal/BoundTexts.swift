import GRDB
import GRDBSQLite

/// One buffer for the texts bound to a write statement, bound without a copy.
///
/// Text bound with `SQLITE_TRANSIENT` is copied by SQLite into memory it allocates, and
/// freed again when the statement is reset: for a synced record, an allocation and a
/// free for each text column of its row and of its state. The texts of one execution are
/// copied here instead, side by side, and bound with `SQLITE_STATIC`, which SQLite reads
/// in place. The buffer must outlive the bindings: ``SQLiteTransaction/withHandle(_:_:)``
/// clears them when the statement has run, before the buffer is handed out again.
final class BoundTexts {
  private var start: UnsafeMutableRawPointer
  private var capacity: Int
  /// Whether a statement's texts are bound from the buffer now (checked in debug builds:
  /// a second user would overwrite them).
  private var inUse = false

  init(capacity: Int = 4_096) {
    self.capacity = max(64, capacity)
    self.start = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 1)
  }

  deinit { start.deallocate() }

  /// Runs `body` with a binder of texts for one statement execution of at most `length`
  /// bytes of text in all; the texts stay where the binder put them until `body` returns.
  func binding<T>(length: Int, _ body: (inout Binder) throws -> T) rethrows -> T {
    assert(!inUse, "the bound-text buffer is already bound to a statement")
    if length > capacity {
      start.deallocate()
      capacity = max(length, 2 * capacity)
      start = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }
    inUse = true
    defer { inUse = false }
    var binder = Binder(next: start, end: start + capacity)
    return try body(&binder)
  }

  /// Copies texts into the buffer and binds them in place.
  struct Binder {
    fileprivate var next: UnsafeMutableRawPointer
    fileprivate let end: UnsafeMutableRawPointer

    /// Binds `text` to parameter `position` of `handle`, copied into the buffer.
    mutating func bind(_ text: inout String, to handle: SQLiteStatement, at position: Int32) {
      text.withUTF8 { bytes in
        precondition(next + bytes.count <= end, "bound texts longer than the length given")
        if let source = bytes.baseAddress { next.copyMemory(from: source, byteCount: bytes.count) }
        // SQLITE_STATIC (a nil destructor): SQLite reads the bytes where they are.
        sqlite3_bind_text(handle, position, next.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        next += bytes.count
      }
    }
  }
}
