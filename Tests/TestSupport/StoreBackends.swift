public import Foundation
public import Model
import Normalization
public import Persistence
import PersistenceMemory
import PersistenceSQLite
import Synchronization

/// The storage backends every backend-agnostic test runs against.
public enum TestBackend: String, CaseIterable, Sendable, CustomStringConvertible {
  case memory
  case sqlite

  public var description: String { rawValue }

  /// A new, empty store of this backend (SQLite in a fresh temporary file).
  public func makeStore(clock: @escaping StoreClock = { Date() }) throws -> any Store {
    switch self {
    case .memory: InMemoryStore(clock: clock)
    case .sqlite: try SQLiteStore(path: TemporaryDirectory.make().appendingPathComponent("store.sqlite").path, clock: clock)
    }
  }

  /// The factory front ends use, with both backends.
  public static let factory = StoreFactory(backends: [SQLiteBackend(), MemoryBackend()])
}

/// Fresh temporary directories for test files, all under one directory per test process
/// (`$TMPDIR/forager-tests/run-PID-…`), which is removed when the process exits. A run
/// that died without exiting leaves its directory behind; the next run removes it.
public enum TemporaryDirectory {
  public static func make(function: String = #function) throws -> URL {
    let url = try runDirectory.get().appendingPathComponent(UUID().uuidString.lowercased())
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// This process's directory, made (and its removal at exit registered) on first use.
  public static let runDirectory: Result<URL, any Error> = Result {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("forager-tests")
    removeDirectoriesOfEndedRuns(in: parent)
    let url = parent.appendingPathComponent("run-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit {
      if case .success(let url) = TemporaryDirectory.runDirectory { try? FileManager.default.removeItem(at: url) }
    }
    return url
  }

  /// Removes `run-PID-…` directories whose process no longer runs, and directories of the
  /// layout before runs had their own (a bare UUID).
  public static func removeDirectoriesOfEndedRuns(in parent: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
    for name in names {
      let parts = name.split(separator: "-")
      let ended: Bool
      if parts.first == "run", parts.count >= 3, let pid = Int32(parts[1]) {
        ended = kill(pid, 0) != 0 && errno == ESRCH
      } else {
        ended = UUID(uuidString: name) != nil
      }
      if ended { try? FileManager.default.removeItem(at: parent.appendingPathComponent(name)) }
    }
  }
}

/// Builders of raw records for store-level tests.
public enum Fixtures {
  /// A fixed instant, so records compare equal across backends and reopenings.
  public static let epoch = Date(timeIntervalSinceReferenceDate: 800_000_000.123456)

  public static func meta(_ id: UUID = UUID(), at date: Date = epoch) -> RecordMetadata {
    RecordMetadata(id: id, createdAt: date)
  }

  public static func category(_ name: String, key: String? = nil, id: UUID = UUID(), sortOrder: Int64 = 0) -> Record {
    Category(meta: meta(id), displayName: name, normalizedName: key ?? SemanticKey.normalizedName(name), sortOrder: sortOrder).record
  }

  public static func template(_ name: String, aliases: [String] = [], category: UUID? = nil, id: UUID = UUID()) -> Record {
    IngredientTemplate(
      meta: meta(id), displayName: name, canonicalName: SemanticKey.canonicalIngredientName(name), aliases: aliases, category: category
    ).record
  }

  public static func recipe(
    _ name: String, cuisine: String? = nil, ingredients: [String] = [], keywords: [String] = [], tags: [UUID] = [],
    id: UUID = UUID()
  ) -> Record {
    Recipe(
      meta: meta(id), displayName: name, titleKey: name.lowercased(), recipeIngredient: ingredients,
      recipeCuisine: cuisine, keywords: keywords, tags: tags
    ).record
  }
}

extension Store {
  /// Every record of every kind, live and deleted, sorted by kind then id: a whole-store
  /// snapshot for comparing backends and reopened files.
  public func dump() throws -> [Record] {
    try read { reader in
      try EntityKind.allCases.sorted().flatMap { kind in
        try reader.fetch(RecordQuery(kind, includeDeleted: true, sort: []))
      }
    }
  }

  /// The kinds whose ``StoreReader/liveRecordCount(_:)`` differs from a count of their
  /// live rows, as "kind: counter N, rows M"; empty when every count is right.
  public func liveCountMismatches() throws -> [String] {
    try read { reader in
      try EntityKind.allCases.compactMap { kind in
        let counter = try reader.liveRecordCount(kind), rows = try reader.count(RecordQuery(kind))
        return counter == rows ? nil : "\(kind.rawValue): counter \(counter), rows \(rows)"
      }
    }
  }

  /// Sync's state of every record that has one, as `<kind>/<id>` → the text it is kept in.
  public func syncStates() throws -> [String: String] {
    try read { reader in
      var states: [String: String] = [:]
      for kind in EntityKind.allCases {
        for (id, text) in try reader.syncStates(kind, ids: reader.syncStateIDs(kind)) {
          states[kind.rawValue + "/" + id.uuidString.lowercased()] = text
        }
      }
      return states
    }
  }

  /// The whole change log.
  public func changeLog() throws -> [Change] {
    try read { try $0.changes(after: 0, limit: .max) }
  }
}

/// A clock that moves forward one millisecond every time it is read, shared by all the
/// stores and libraries of a test, so every write gets a distinct, ordered time.
public final class TickingClock: Sendable {
  private let ticks = Mutex<Int64>(0)
  public let start: Date

  public init(start: Date = Fixtures.epoch) { self.start = start }

  /// The next instant.
  public func now() -> Date {
    let tick = ticks.withLock { value -> Int64 in
      value += 1
      return value
    }
    return start.addingTimeInterval(Double(tick) / 1000)
  }

  /// Moves the clock `milliseconds` forward without reading it.
  public func advance(milliseconds: Int64) { ticks.withLock { $0 += milliseconds } }
}
