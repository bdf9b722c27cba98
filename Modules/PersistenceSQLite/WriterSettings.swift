/// The settings of a store's writer connection, in one place: ``SQLiteStore`` applies them,
/// and so do the benchmark's hand-written baselines, so that a comparison of the two
/// measures the code and not the configuration (Docs/PERFORMANCE.md, "Fair baselines").
package enum WriterSettings {
  /// The settings as PRAGMA statements, in the order they are applied.
  package static let statements: [String] = [
    // WAL with synchronous NORMAL (GRDB's pool default, stated here so it cannot change
    // unnoticed): a commit appends to the WAL without an fsync; the WAL is synced at
    // checkpoints. A crash of the process loses nothing committed; a power loss or OS
    // crash can lose the last commits, never corrupts the file. FULL would fsync every
    // commit (≈ 4 ms each on this project's machines). Docs/ARCHITECTURE.md, "Storage".
    "PRAGMA synchronous = NORMAL",
    // A transaction whose dirty pages outgrow the page cache spills them to the WAL
    // before it commits, and writes a page again each time it changes it after that.
    // A sync page or a bulk import touches tens of thousands of index pages (ids and
    // keys are spread over the b-trees); at SQLite's default 2 MB a sync of 2 × 10k
    // records made 341k writes. A 32 MiB cache keeps such a transaction's pages until
    // its commit; it is only filled by transactions that large.
    "PRAGMA cache_size = -\(SQLiteStore.writerCacheKiB)",
    // A statement that may fail part-way keeps a statement journal: the pages it changes
    // that the transaction had changed before. SQLite keeps it in memory up to 64 KiB and
    // then in a temporary file, which stays a file for the rest of the transaction: every
    // later statement writes each page it touches there, two writes a page. The sync
    // benchmark's run made 307k such writes of its 330k; in memory, none. The memory is a
    // statement's pages at most, freed when the statement ends. (Temporary tables, which
    // the dedup step uses, are kept in memory too.)
    "PRAGMA temp_store = MEMORY",
    // GRDB's connections check foreign keys by default; stated so that a connection
    // outside GRDB has it too. (The schema declares none: relationships are checked by the
    // repositories and the sync's delete rules, which also see tombstones.)
    "PRAGMA foreign_keys = ON",
  ]

  /// The integer settings a comparison of two connections reads back (`PRAGMA name`): the
  /// ones above, and those the file and the checkpoint hook decide.
  package static let compared = ["synchronous", "cache_size", "temp_store", "wal_autocheckpoint", "page_size", "mmap_size", "foreign_keys"]

  /// Applies every setting through `execute`.
  package static func apply(_ execute: (String) throws -> Void) rethrows {
    for statement in statements { try execute(statement) }
  }
}
