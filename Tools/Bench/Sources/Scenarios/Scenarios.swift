/// Every scenario, in the order of the table.
enum Scenarios {
  static let all: [Scenario] = [
    StoreScenarios.lookup,
    StoreScenarios.getOrCreateExisting,
    StoreScenarios.insertNew,
    StoreScenarios.recipeCreate,
    LineParseScenario.scenario,
    RecipeImportScenario.scenario,
    KitchenArchiveScenario.scenario,
    SyncScenarios.twoDevices,
    SyncScenarios.incremental,
    ServerLoadScenario.scenario,
    ServerLogScenario.scenario,
    FairnessScenario.scenario,
    LiveScenario.scenario,
    MigrationScenarios.dedup,
    MigrationScenarios.migration,
    SyncScenarios.memory,
    SnapshotScenario.scenario,
    RestoreScenario.scenario,
    ObserveScenario.scenario,
    AppScenarios.batch,
    CommandScenario.scenario,
    AppScenarios.replStart,
  ]
}
