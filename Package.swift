// swift-tools-version: 6.1
import PackageDescription

/// Settings every Forager target shares: Swift 6 language mode (strict concurrency) and
/// imports that stay internal unless written `public import`.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
/// The SQLite C API GRDB itself links (the system libsqlite3), for the SQLite backend's hot paths.
let grdbSQLite: Target.Dependency = .product(name: "GRDBSQLite", package: "GRDB.swift")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
// The sync server (Docs/SERVER.md): Hummingbird 2, PostgreSQL through postgres-nio, and the HTTP client.
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let postgresNIO: Target.Dependency = .product(name: "PostgresNIO", package: "postgres-nio")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
/// The server's services (database client, credential watcher, HTTP) start and stop as one group.
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let unixSignals: Target.Dependency = .product(name: "UnixSignals", package: "swift-service-lifecycle")
/// The server's metrics: recorded through swift-metrics, served as Prometheus text by forager-server.
let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")
/// Zip archives (Paprika's `.paprikarecipes`) and raw deflate for their gzip members.
let zipFoundation: Target.Dependency = .product(name: "ZIPFoundation", package: "ZIPFoundation")

let package = Package(
  name: "Forager",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Model", targets: ["Model"]),
    .library(name: "Normalization", targets: ["Normalization"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .library(name: "PersistenceSQLite", targets: ["PersistenceSQLite"]),
    .library(name: "PersistenceMemory", targets: ["PersistenceMemory"]),
    .library(name: "Repositories", targets: ["Repositories"]),
    .library(name: "Sync", targets: ["Sync"]),
    .library(name: "SyncSQLite", targets: ["SyncSQLite"]),
    .library(name: "SyncWire", targets: ["SyncWire"]),
    .library(name: "SyncServer", targets: ["SyncServer"]),
    .library(name: "SyncPostgres", targets: ["SyncPostgres"]),
    .library(name: "SyncHTTP", targets: ["SyncHTTP"]),
    .library(name: "RecipeExchange", targets: ["RecipeExchange"]),
    .library(name: "Seed", targets: ["Seed"]),
    .library(name: "Migration", targets: ["Migration"]),
    .library(name: "CommandLanguage", targets: ["CommandLanguage"]),
    .library(name: "Scripting", targets: ["Scripting"]),
    .library(name: "GeneratedRegion", targets: ["GeneratedRegion"]),
    .executable(name: "forager", targets: ["forager"]),
    .executable(name: "forager-batch", targets: ["forager-batch"]),
    .executable(name: "forager-server", targets: ["forager-server"]),
    .executable(name: "forager-bench", targets: ["Bench"]),
    .executable(name: "forager-fuzz", targets: ["forager-fuzz"]),
    .executable(name: "forager-example-live-list", targets: ["forager-example-live-list"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
  ],
  targets: [
    // MARK: - Modules
    .target(
      name: "Model",
      dependencies: [.product(name: "Crypto", package: "swift-crypto")],
      path: "Modules/Model"
    ),
    .testTarget(name: "ModelTests", dependencies: ["Model"], path: "Tests/ModelTests"),

    .target(name: "Normalization", path: "Modules/Normalization"),
    .testTarget(
      name: "NormalizationTests", dependencies: ["Normalization", "Model"], path: "Tests/NormalizationTests", exclude: ["Golden"]
    ),

    .target(name: "Persistence", dependencies: ["Model", "Normalization"], path: "Modules/Persistence"),
    .target(
      name: "PersistenceSQLite",
      dependencies: ["Persistence", "Model", grdb, grdbSQLite],
      path: "Modules/PersistenceSQLite"
    ),
    .target(name: "PersistenceMemory", dependencies: ["Persistence", "Model"], path: "Modules/PersistenceMemory"),
    .testTarget(
      name: "PersistenceTests",
      dependencies: ["Persistence", "PersistenceSQLite", "PersistenceMemory", "Model", "TestSupport", grdb],
      path: "Tests/PersistenceTests"
    ),

    .target(
      name: "Repositories",
      dependencies: ["Model", "Normalization", "Persistence"],
      path: "Modules/Repositories"
    ),
    .testTarget(
      name: "RepositoriesTests",
      dependencies: ["Repositories", "Model", "Normalization", "Persistence", "TestSupport"],
      path: "Tests/RepositoriesTests"
    ),

    .target(
      name: "Sync",
      dependencies: ["Model", "Persistence", "Repositories"],
      path: "Modules/Sync"
    ),
    .target(name: "SyncSQLite", dependencies: ["Sync", grdb], path: "Modules/SyncSQLite"),
    .target(name: "SyncMemory", dependencies: ["Sync"], path: "Modules/SyncMemory"),
    .testTarget(
      name: "SyncTests",
      dependencies: [
        "Sync", "SyncSQLite", "SyncMemory", "Seed", "Migration", "Repositories", "Model", "Persistence", "PersistenceSQLite",
        "PersistenceMemory", "TestSupport", "FuzzSupport", "LegacyStoreSupport", grdb,
      ],
      path: "Tests/SyncTests"
    ),

    // The sync server and its client (Docs/SERVER.md). SyncWire is the HTTP protocol both
    // sides speak; SyncServer the routes, auth and validation over a storage protocol
    // (tested without sockets or a database); SyncPostgres that storage on PostgreSQL;
    // SyncHTTP a CloudStore that talks to forager-server.
    .target(name: "SyncWire", path: "Modules/SyncWire"),
    .target(
      name: "SyncServer",
      dependencies: [
        "Sync", "SyncWire", hummingbird, .product(name: "HummingbirdCore", package: "hummingbird"), httpTypes, nioCore, logging, crypto,
        metrics, serviceLifecycle, .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ],
      path: "Modules/SyncServer"
    ),
    .target(name: "SyncServerMemory", dependencies: ["SyncServer", "SyncWire"], path: "Modules/SyncServerMemory"),
    .testTarget(
      name: "SyncServerTests",
      dependencies: [
        "SyncServer", "SyncServerMemory", "SyncWire", "Sync", "Model", "ServerTestSupport", hummingbird,
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        httpTypes, nioCore, logging, prometheus, metrics,
      ],
      path: "Tests/SyncServerTests"
    ),
    .target(
      name: "SyncPostgres", dependencies: ["SyncServer", "SyncWire", postgresNIO, nioCore, logging, serviceLifecycle, metrics],
      path: "Modules/SyncPostgres"),
    .testTarget(
      name: "SyncPostgresTests",
      dependencies: [
        "SyncPostgres", "SyncServer", "SyncServerMemory", "SyncWire", "Sync", "Model", "ServerTestSupport", postgresNIO, logging,
        serviceLifecycle, hummingbird,
        .product(name: "HummingbirdTesting", package: "hummingbird"), httpTypes, nioCore, prometheus,
      ],
      path: "Tests/SyncPostgresTests"
    ),
    .target(
      name: "SyncHTTP",
      dependencies: ["Sync", "SyncWire", asyncHTTPClient, nioCore, nioPosix, .product(name: "NIOHTTP1", package: "swift-nio")],
      path: "Modules/SyncHTTP"
    ),
    .testTarget(
      name: "SyncHTTPTests",
      dependencies: [
        "SyncHTTP", "SyncServer", "SyncServerMemory", "SyncPostgres", "SyncWire", "Sync", "Model", "Repositories", "Persistence",
        "PersistenceMemory",
        "ServerTestSupport", "TestSupport", "FaultProxySupport", hummingbird, nioCore, logging, postgresNIO, serviceLifecycle,
      ],
      path: "Tests/SyncHTTPTests"
    ),

    // Recipes and plans in and out (Docs/IMPORT.md): saved pages and JSON-LD, Paprika
    // archives (zip through ZIPFoundation) read into plain values; recipes written back as
    // JSON-LD or a Paprika archive, the meal plan as an iCalendar file. It creates nothing:
    // Scripting hands what it reads to the repositories.
    .target(
      name: "RecipeExchange", dependencies: ["Model", "Normalization", zipFoundation, crypto], path: "Modules/RecipeExchange"),
    .testTarget(
      name: "RecipeExchangeTests", dependencies: ["RecipeExchange", "Model", "Normalization", zipFoundation],
      path: "Tests/RecipeExchangeTests"
    ),

    .target(name: "Seed", dependencies: ["Model", "Repositories"], path: "Modules/Seed"),
    .testTarget(name: "SeedTests", dependencies: ["Seed", "Repositories", "Model", "TestSupport"], path: "Tests/SeedTests"),

    .target(
      name: "Migration",
      dependencies: ["Model", "Normalization", "Persistence", "PersistenceSQLite", grdb],
      path: "Modules/Migration"
    ),
    .testTarget(
      name: "MigrationTests",
      dependencies: [
        "Migration", "Model", "Normalization", "Persistence", "PersistenceSQLite", "Repositories", "TestSupport", "LegacyStoreSupport",
        grdb, .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Tests/MigrationTests"
    ),

    // The command language on its own (Docs/COMMANDS.md): lexer, parser, specs and
    // registry, help, completion, rendering, the REPL line engine. No kitchen module.
    .target(name: "CommandLanguage", path: "Modules/CommandLanguage", plugins: [.plugin(name: "LayerCheckPlugin")]),
    .testTarget(name: "CommandLanguageTests", dependencies: ["CommandLanguage"], path: "Tests/CommandLanguageTests"),

    .target(
      name: "Scripting",
      dependencies: [
        "CommandLanguage", "Model", "Repositories", "Sync", "SyncSQLite", "SyncMemory", "SyncHTTP", "Seed", "Persistence",
        "PersistenceSQLite",
        "PersistenceMemory", "Migration", "RecipeExchange",
      ],
      path: "Modules/Scripting",
      plugins: [.plugin(name: "LayerCheckPlugin")]
    ),
    .testTarget(
      name: "ScriptingTests",
      dependencies: [
        "Scripting", "CommandLanguage", "Model", "Repositories", "TestSupport", "Migration", "Sync", "SyncSQLite", "SyncMemory", "Seed",
        "RecipeExchange",
        "LegacyStoreSupport", "SpawnSupport", grdb, zipFoundation,
      ],
      path: "Tests/ScriptingTests"
    ),

    // A page's generated region (a table between two comments that a test keeps equal to
    // the code): SERVER.md's limits table and ARCHITECTURE.md's layering tables.
    .target(name: "GeneratedRegion", path: "Modules/GeneratedRegion"),
    .testTarget(name: "GeneratedRegionTests", dependencies: ["GeneratedRegion"], path: "Tests/GeneratedRegionTests"),

    // MARK: - Apps
    .systemLibrary(
      name: "CReadline",
      path: "Apps/CReadline",
      providers: [.apt(["libreadline-dev"])]
    ),
    .executableTarget(
      name: "forager",
      dependencies: ["Scripting", "CommandLanguage", "CReadline", argumentParser],
      path: "Apps/forager",
      plugins: [.plugin(name: "LayerCheckPlugin")]
    ),
    .executableTarget(
      name: "forager-batch",
      dependencies: ["Scripting", "CommandLanguage", argumentParser],
      path: "Apps/forager-batch",
      plugins: [.plugin(name: "LayerCheckPlugin")]
    ),
    .executableTarget(
      name: "forager-server",
      dependencies: [
        "SyncServer", "SyncPostgres", "SyncWire", "GeneratedRegion", argumentParser, hummingbird, postgresNIO, logging,
        serviceLifecycle, unixSignals, metrics, prometheus,
      ],
      path: "Apps/forager-server"
    ),
    // MARK: - Examples
    // What an app author copies: only the public API of the library products.
    .executableTarget(
      name: "forager-example-live-list",
      dependencies: ["Model", "Persistence", "PersistenceSQLite", "Repositories", "Sync", "SyncHTTP", argumentParser],
      path: "Examples/LiveWeeklyList",
      plugins: [.plugin(name: "LayerCheckPlugin")]
    ),

    // The apps and the example are dependencies so they are built before the end-to-end
    // tests run them.
    .testTarget(
      name: "AppTests",
      dependencies: [
        "TestSupport", "ServerTestSupport", "SpawnSupport", "Sync", "SyncHTTP", "Model", "Repositories", "PersistenceMemory", "forager",
        "forager-batch", "forager-server", "forager-example-live-list",
      ],
      path: "Tests/AppTests"),

    // MARK: - Tools
    // Benchmarks against raw SQLite (Docs/PERFORMANCE.md): `swift run -c release forager-bench`.
    .systemLibrary(name: "CSQLite", path: "Tools/Bench/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // The baselines' raw SQLite connection, on a store writer's settings (BenchTests holds
    // the two to the same settings).
    .target(name: "BenchBaselines", dependencies: ["CSQLite", "PersistenceSQLite"], path: "Tools/Bench/Baselines"),
    .testTarget(
      name: "BenchTests", dependencies: ["Bench", "BenchBaselines", "PersistenceSQLite", "TestSupport"], path: "Tests/BenchTests"),
    .executableTarget(
      name: "Bench",
      dependencies: [
        "BenchBaselines", "LegacyStoreSupport", "Model", "Normalization", "Persistence", "PersistenceMemory", "PersistenceSQLite",
        "Repositories", "Sync", "SyncMemory", "SyncSQLite", "Migration", "CSQLite",
        "RecipeExchange", "Scripting", "CommandLanguage", "SyncServer", "SyncServerMemory", "SyncPostgres", "SyncWire", "SyncHTTP",
        "ServerTestSupport",
        "SpawnSupport", "FaultProxySupport", asyncHTTPClient,
        postgresNIO, nioCore,
        logging,
        hummingbird, argumentParser,
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "Tools/Bench/Sources"
    ),
    // The fuzz target of pulled batches (Scripts/fuzz.sh builds it with libFuzzer).
    .target(
      name: "FuzzSupport", dependencies: ["Model", "Persistence", "PersistenceMemory", "Repositories", "Sync"],
      path: "Tools/Fuzz/Support"),
    .executableTarget(name: "forager-fuzz", dependencies: ["FuzzSupport"], path: "Tools/Fuzz/Main"),
    // The layering rule (Docs/ARCHITECTURE.md): allowed edges live in Tools/LayerCheck/Core/AllowedEdges.swift.
    .target(
      name: "LayerCheckCore",
      dependencies: [
        "GeneratedRegion",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ],
      path: "Tools/LayerCheck/Core"
    ),
    .executableTarget(name: "layer-check", dependencies: ["LayerCheckCore", argumentParser], path: "Tools/LayerCheck/CLI"),
    .plugin(
      name: "LayerCheckPlugin",
      capability: .buildTool(),
      dependencies: ["layer-check"],
      path: "Tools/LayerCheck/Plugin"
    ),
    .plugin(
      name: "LayerCheckCommandPlugin",
      capability: .command(
        intent: .custom(verb: "check-layers", description: "Check module dependency edges and front-end sources")
      ),
      dependencies: ["layer-check"],
      path: "Tools/LayerCheck/CommandPlugin"
    ),
    .testTarget(
      name: "LayerCheckTests",
      dependencies: ["LayerCheckCore", "SpawnSupport"],
      path: "Tests/LayerCheckTests",
      exclude: ["Fixtures"]
    ),

    // MARK: - Tests
    .target(
      name: "TestSupport",
      dependencies: ["Model", "Normalization", "Persistence", "PersistenceSQLite", "PersistenceMemory"],
      path: "Tests/TestSupport"
    ),
    // Version-1 stores as the earlier app left them, for the migration's tests and benchmarks.
    .target(name: "LegacyStoreSupport", dependencies: ["Migration", "Model", grdb], path: "Tests/LegacyStoreSupport"),
    // A throwaway PostgreSQL cluster for the server's integration tests.
    .target(
      name: "ServerTestSupport",
      dependencies: ["SpawnSupport", "SyncPostgres", "SyncServer", "SyncServerMemory", "SyncWire", postgresNIO, logging, hummingbird],
      path: "Tests/ServerTestSupport"),
    // Starts programs with no descriptor of the test process but the standard three.
    .target(name: "SpawnSupport", path: "Tests/SpawnSupport"),
    // A bad network on loopback (delay, connections cut mid-response) for the HTTP sync
    // tests and the bench's live scenario.
    .target(name: "FaultProxySupport", path: "Tests/FaultProxySupport"),
  ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
  target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}

// Scripts/fuzz.sh builds with FORAGER_FUZZ=1: the code a pulled batch runs through gets
// libFuzzer's coverage and AddressSanitizer, and forager-fuzz links libFuzzer's driver.
// Only these targets: `-Xswiftc -sanitize=fuzzer` would also give the build's own tools
// (the layering plugin) libFuzzer's `main`, and they would not link.
if Context.environment["FORAGER_FUZZ"] == "1" {
  let fuzzed: Set<String> = ["Model", "Normalization", "Persistence", "PersistenceMemory", "Repositories", "Sync", "FuzzSupport"]
  let sanitize: SwiftSetting = .unsafeFlags(["-sanitize=fuzzer,address"])
  for target in package.targets where fuzzed.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [sanitize]
  }
  for target in package.targets where target.name == "forager-fuzz" {
    target.swiftSettings = (target.swiftSettings ?? []) + [sanitize, .define("FUZZING")]
    target.linkerSettings = [.unsafeFlags(["-sanitize=fuzzer,address"])]
  }
}
