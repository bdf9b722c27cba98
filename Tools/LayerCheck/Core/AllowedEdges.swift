// The allowed module edges: the ONE place that says which target may depend on which
// (Docs/DESIGN.md §1). `layer-check edges` fails on any other edge, and on any non-test target
// that is not listed here. To add a module, app or tool, add a line; test targets
// (`.testTarget`) may depend on anything and need no line.

extension LayerTable {
  /// Forager's layering.
  public static let forager = LayerTable([
    // MARK: Modules
    .module("Normalization"),
    .module("Model", products: ["Crypto"]),
    // Normalization: a unique kind's stored key must be the key of its name (SemanticKeyRule).
    .module("Persistence", targets: ["Model", "Normalization"]),
    .module("PersistenceSQLite", targets: ["Persistence", "Model"], products: ["GRDB", "GRDBSQLite"]),
    .module("PersistenceMemory", targets: ["Persistence", "Model"]),
    .module("Repositories", targets: ["Model", "Normalization", "Persistence"]),
    .module("Sync", targets: ["Model", "Normalization", "Persistence", "Repositories"]),
    .module("SyncSQLite", targets: ["Sync"], products: ["GRDB"]),
    // The sync server (Docs/SERVER.md): the wire protocol, the server's routes over a
    // storage protocol, its PostgreSQL storage, the HTTP client. None creates entities.
    .module("SyncWire", targets: ["Sync"]),
    // ServiceLifecycle: the live route closes its streams on the server's graceful shutdown.
    // NIOHTTPTypes: the server's own channel handlers (open connections, early answers) see HTTP parts.
    .module(
      "SyncServer", targets: ["Sync", "SyncWire"],
      products: [
        "Hummingbird", "HummingbirdCore", "HTTPTypes", "NIOCore", "NIOHTTPTypes", "Logging", "Crypto", "Metrics", "ServiceLifecycle",
      ]),
    // ServiceLifecycle: the credential watcher runs as a service of the server's group.
    // Metrics: the time requests wait for a pooled database connection.
    .module(
      "SyncPostgres", targets: ["SyncServer", "SyncWire", "Sync"],
      products: ["PostgresNIO", "NIOCore", "Logging", "ServiceLifecycle", "Metrics"]),
    .module("SyncHTTP", targets: ["Sync", "SyncWire"], products: ["AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1"]),
    .module("Seed", targets: ["Model", "Repositories"]),
    // Recipes and plans in and out: reads pages and Paprika archives into plain values,
    // writes JSON-LD, Paprika archives (ZIPFoundation; Crypto for Paprika's content hash)
    // and iCalendar; creates nothing.
    .module("RecipeExchange", targets: ["Model", "Normalization"], products: ["ZIPFoundation", "Crypto"]),
    .module("Migration", targets: ["Model", "Normalization", "Persistence", "PersistenceSQLite"], products: ["GRDB"]),

    // MARK: Front ends (their sources are also checked by the front-end rule)
    .frontEnd(
      "Scripting",
      targets: [
        "Model", "Repositories", "Sync", "SyncSQLite", "SyncHTTP", "Seed", "Persistence", "PersistenceSQLite", "PersistenceMemory",
        "Migration", "RecipeExchange",
      ]
    ),
    .frontEnd("forager", targets: ["Scripting", "CReadline"], products: ["ArgumentParser"]),
    .frontEnd("forager-batch", targets: ["Scripting", "CReadline"], products: ["ArgumentParser"]),
    .module("CReadline"),  // system library (GNU readline)
    .module(
      "forager-server", targets: ["SyncServer", "SyncPostgres", "SyncWire"],
      products: ["ArgumentParser", "Hummingbird", "PostgresNIO", "Logging", "ServiceLifecycle", "UnixSignals", "Metrics", "Prometheus"]),

    // MARK: Tools
    .tool("LayerCheckCore", products: ["SwiftSyntax", "SwiftParser"]),
    .tool("layer-check", targets: ["LayerCheckCore"], products: ["ArgumentParser"]),
    .tool("LayerCheckPlugin", targets: ["layer-check"]),
    .tool("LayerCheckCommandPlugin", targets: ["layer-check"]),
    .unrestrictedTool("Bench"),
    .tool("BenchBaselines", targets: ["CSQLite", "PersistenceSQLite"]),
    // The fuzz target of the batch decoder, the pull's checks and the join (Scripts/fuzz.sh).
    .tool("FuzzSupport", targets: ["Model", "Persistence", "PersistenceMemory", "Repositories", "Sync"]),
    .tool("forager-fuzz", targets: ["FuzzSupport"]),
    .module("CSQLite"),  // system library (the SQLite C API, for the benchmark baseline)

    // MARK: Tests
    .testSupport("TestSupport"),
    .testSupport("ServerTestSupport"),
    .testSupport("SpawnSupport"),
    .testSupport("FaultProxySupport"),
    .testSupport("LegacyStoreSupport"),
  ])
}
