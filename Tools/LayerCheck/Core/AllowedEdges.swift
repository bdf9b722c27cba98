// The allowed module edges: the ONE place that says which target may depend on which
// (Docs/DESIGN.md §1). `layer-check edges` fails on any other edge, and on any non-test target
// that is not listed here; with `--check-imports`, also on a declared local edge that no file
// of the target imports, so the table lists the graph the code uses. Test targets
// (`.testTarget`) may depend on anything and need no line. Docs/ARCHITECTURE.md's module and
// edge tables are printed from this table (`layer-check tables`).

extension LayerTable {
  /// Forager's layering.
  public static let forager = LayerTable([
    // MARK: Modules
    .module(
      "Normalization",
      summary: "pure, total functions: names → semantic keys, singular of food nouns, ISO weeks, civil dates, "
        + "ingredient-line parsing, the exact unit table and summed, readable amounts"),
    .module(
      "Model", products: ["Crypto"],
      summary: "entity value types, `EntityKind`, one `EntitySchema` per kind (fields, relationships with delete rules, "
        + "semantic key, identity policy), `Record`, `ValueRules`, `RecordBudget`, `DeterministicID`",
      reasons: ["Crypto": "SHA-1 of name-based ids"]),
    .module(
      "Persistence", targets: ["Model", "Normalization"],
      summary: "the `Store` protocol (atomic read/write transactions, semantic-key lookups, queries, tombstones, change log, "
        + "metadata), `StoreFactory`, `StoreError`, record validation including the semantic-key rule",
      reasons: ["Normalization": "a unique kind's stored key must be the key of its name: `SemanticKeyRule`"]),
    .module(
      "PersistenceSQLite", targets: ["Persistence", "Model"], products: ["GRDB", "GRDBSQLite"],
      summary: "`SQLiteStore`: one SQLite file (WAL) through GRDB, one generated table per kind",
      reasons: ["GRDBSQLite": "the C API GRDB links"]),
    .module(
      "PersistenceMemory", targets: ["Persistence", "Model"],
      summary: "`InMemoryStore`: a real backend with the same semantics"),
    .module(
      "Repositories", targets: ["Model", "Normalization", "Persistence"],
      summary: "`Library` and one repository per kind: the only code that creates entities; the whole-kitchen archive "
        + "(`KitchenArchive/`), whose import creates every kind of entity"),
    .module(
      "Sync", targets: ["Model", "Persistence", "Repositories"],
      summary: "replicas, hybrid logical clocks, change batches, `ChangeRules`, the join and the view (incremental and "
        + "reference), the `CloudStore` protocol, the engine, the monitor, each record's history "
        + "and the trash",
      reasons: ["Repositories": "restoring a deleted record writes it back as a user's edit, through `Library`"]),
    .module(
      "SyncSQLite", targets: ["Sync"], products: ["GRDB"],
      summary: "`SQLiteCloud`: a cloud in one SQLite file that several processes share"),
    .module(
      "SyncMemory", targets: ["Sync"],
      summary: "`InMemoryCloud`: a cloud in one process's memory whose live channel announces each push"),
    // The sync server (Docs/SERVER.md): the wire protocol, the server's routes over a
    // storage protocol, its PostgreSQL storage, the HTTP client. None creates entities.
    .module(
      "SyncWire",
      summary: "the HTTP protocol both ends speak: paths, headers, media types, JSON messages, the pull cursor"),
    .module(
      "SyncServer", targets: ["Sync", "SyncWire"],
      products: [
        "Hummingbird", "HummingbirdCore", "HTTPTypes", "NIOCore", "NIOHTTPTypes", "Logging", "Crypto", "Metrics", "ServiceLifecycle",
      ],
      summary: "`SyncService` (the routes, authentication, the checks at the door) over the `HouseholdLog` protocol, "
        + "`HouseholdAdministration`, the live channel's hub, device tokens, administration",
      reasons: [
        "Sync": "the batch decoder and `ChangeRules`",
        "HummingbirdCore": "its connection cap",
        "NIOHTTPTypes": "the server's own channel handlers see HTTP parts: open connections, early answers",
        "ServiceLifecycle": "the live route closes its streams on the server's graceful shutdown",
      ]),
    .module(
      "SyncServerMemory", targets: ["SyncServer", "SyncWire"],
      summary: "`MemoryHouseholdStorage`: households and their logs in one process's memory, with PostgreSQL's rules"),
    .module(
      "SyncPostgres", targets: ["SyncServer", "SyncWire"],
      products: ["PostgresNIO", "NIOCore", "Logging", "ServiceLifecycle", "Metrics"],
      summary: "`PostgresHouseholdStorage`, `PostgresSchema` (versioned setup), `PostgresLocation` (a `DATABASE_URL`)",
      reasons: [
        "ServiceLifecycle": "the credential watcher runs as a service of the server's group",
        "Metrics": "the time requests wait for a pooled database connection",
      ]),
    .module(
      "SyncHTTP", targets: ["Sync", "SyncWire"], products: ["AsyncHTTPClient", "NIOCore", "NIOPosix", "NIOHTTP1"],
      summary: "`HTTPCloud`: a `CloudStore` that is a household on `forager-server`"),
    .module(
      "Seed", targets: ["Model", "Repositories"],
      summary: "the default categories and the sample library, created through repositories"),
    .module(
      "RecipeExchange", targets: ["Model", "Normalization"], products: ["ZIPFoundation", "Crypto"],
      summary: "recipes and plans in and out: saved pages and JSON-LD files, Paprika archives, JSON-LD and Paprika "
        + "writers, the meal plan as iCalendar; read into plain values, creates nothing",
      reasons: ["ZIPFoundation": "Paprika's zip and its gzip members' deflate", "Crypto": "Paprika's content hash"]),
    .module(
      "Migration", targets: ["Model", "Normalization", "Persistence", "PersistenceSQLite"], products: ["GRDB"],
      summary: "`StoreMigrator`: the v1 legacy schema, stage A (v1 → v2), keeper-rule dedup, stage B (v2 → v3), "
        + "stage C (v3 → v4, weekly-list keys), stage D (v4 → v5: the stores' table and the new columns), "
        + "stage E (v5 → v6: ingredient groups and add-plan amounts)"),

    // MARK: Front ends (their sources are also checked by the front-end rule)
    // The command language depends on no local target: no kitchen module (Model,
    // Repositories, Sync, …) can be imported into it without this line changing.
    .frontEnd(
      "CommandLanguage", targets: [],
      summary: "the command language without the kitchen: lexer, parser, command specs and registry generic over the "
        + "context they run in, did-you-mean, help, results, JSON and table rendering, the interpreter, the REPL line "
        + "engine and completer"),
    .frontEnd(
      "Scripting",
      targets: [
        "CommandLanguage", "Model", "Repositories", "Sync", "SyncSQLite", "SyncMemory", "SyncHTTP", "Seed", "Persistence",
        "PersistenceSQLite", "PersistenceMemory", "Migration", "RecipeExchange",
      ],
      summary: "the kitchen's commands and value types, the session (store, devices, clouds, live drivers) both front "
        + "ends use, the batch runner and the import runs",
      reasons: [
        "PersistenceSQLite": "to open stores", "PersistenceMemory": "to open stores", "SyncMemory": "`cloud open memory`",
      ]),
    .frontEnd(
      "forager", targets: ["Scripting", "CommandLanguage", "CReadline"], products: ["ArgumentParser"],
      summary: "the REPL: line editing, history and completion through readline, wired to Scripting"),
    .frontEnd(
      "forager-batch", targets: ["Scripting", "CommandLanguage", "CReadline"], products: ["ArgumentParser"],
      summary: "the batch runner: command scripts from files or standard input, wired to Scripting"),
    .frontEnd(
      "forager-example-live-list", targets: ["Model", "Persistence", "PersistenceSQLite", "Repositories", "Sync", "SyncHTTP"],
      products: ["ArgumentParser"],
      summary: "the example app (Examples/LiveWeeklyList): a live weekly list synced through a server, on the public API alone",
      reasons: [
        "Persistence": "to iterate an observed query", "PersistenceSQLite": "to open its store",
        "SyncHTTP": "to join the household on forager-server",
      ]),
    .module(
      "GeneratedRegion",
      summary: "`GeneratedRegion`: a table between two comments of a page, compared with and rewritten from the code "
        + "that makes it (SERVER.md's limits, ARCHITECTURE.md's tables)"),
    .systemLibrary("CReadline", summary: "GNU readline, for the REPL"),
    .app(
      "forager-server", targets: ["SyncServer", "SyncPostgres", "SyncWire", "GeneratedRegion"],
      products: ["ArgumentParser", "Hummingbird", "PostgresNIO", "Logging", "ServiceLifecycle", "UnixSignals", "Metrics", "Prometheus"],
      summary: "the sync server: `serve`, database setup, households, device tokens, held batches, quotas"),

    // MARK: Tools
    .tool(
      "LayerCheckCore", targets: ["GeneratedRegion"], products: ["SwiftSyntax", "SwiftParser"],
      summary: "the layering rule: this table, the edge, import and front-end source checks"),
    .tool("layer-check", targets: ["LayerCheckCore"], products: ["ArgumentParser"], summary: "the layering rule's command line"),
    .tool(
      "LayerCheckPlugin", targets: ["layer-check"],
      summary: "build plugin: runs the front-end source check on every build of a front end"),
    .tool(
      "LayerCheckCommandPlugin", targets: ["layer-check"],
      summary: "`swift package check-layers`: the edges and the front ends' sources without building them"),
    .unrestrictedTool("Bench", summary: "`forager-bench`: Forager against raw SQLite and absolute targets (Docs/PERFORMANCE.md)"),
    .tool(
      "BenchBaselines", targets: ["CSQLite", "PersistenceSQLite"],
      summary: "the baselines' raw SQLite connection, on a store writer's settings"),
    // The fuzz target of the batch decoder, the pull's checks and the join (Scripts/fuzz.sh).
    .tool(
      "FuzzSupport", targets: ["Model", "Persistence", "PersistenceMemory", "Repositories", "Sync"],
      summary: "the fuzz harness of pulled batches: a device, an honest observer, the structured mutator"),
    .tool("forager-fuzz", targets: ["FuzzSupport"], summary: "the libFuzzer driver of `FuzzSupport` (Scripts/fuzz.sh)"),
    .systemLibrary("CSQLite", summary: "the SQLite C API, for the benchmark baseline"),

    // MARK: Tests
    .testSupport("TestSupport", summary: "fixtures, clocks and stores shared by the test targets"),
    .testSupport("ServerTestSupport", summary: "a throwaway PostgreSQL cluster and loopback servers for the server's tests"),
    .testSupport("SpawnSupport", summary: "starts programs with no descriptor of the test process but the standard three"),
    .testSupport("FaultProxySupport", summary: "a bad network on loopback: delays and connections cut mid-response"),
    .testSupport("LegacyStoreSupport", summary: "version-1 stores as the earlier app left them, for migration tests and benchmarks"),
  ])
}
