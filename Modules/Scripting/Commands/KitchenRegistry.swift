public import CommandLanguage

/// The command language's types, run against the kitchen's ``Session``.
typealias CommandSpec = CommandLanguage.CommandSpec<Session>
typealias CommandGroup = CommandLanguage.CommandGroup<Session>
typealias CommandRegistry = CommandLanguage.CommandRegistry<Session>
typealias Invocation = CommandLanguage.Invocation<Session>
typealias ScriptParser = CommandLanguage.ScriptParser<Session>

extension CommandLanguage.CommandRegistry where Context == Session {
  /// Every kitchen command, by group: the language of both front ends.
  public static var standard: CommandLanguage.CommandRegistry<Session> { kitchenCommands }
}

/// The kitchen's command groups, in the order `help` lists them.
private let kitchenCommands = CommandLanguage.CommandRegistry<Session>(
  groups: [
    SessionCommands.group,
    SettingsCommands.group,
    DeviceCommands.group,
    SyncCommands.group,
    SeedCommands.group,
    CategoryCommands.group,
    TagCommands.group,
    IngredientCommands.group,
    BookCommands.group,
    RecipeCommands.group,
    MealCommands.group,
    ListCommands.group,
    WatchCommands.group,
    PantryCommands.group,
    StoreCommands.group,
    KitchenArchiveCommands.group,
    ExpectCommands.group,
    ExplainCommands.group,
    HistoryCommands.group,
    RestoreCommands.group,
    UndoCommands.group,
    MigrateCommands.group,
  ],
  introduction: [
    "Forager commands. 'help COMMAND' shows usage and an example; every command takes --json.",
    "Quote names with spaces (\"Mom's Lasagna\"); the last argument may be several words unquoted.",
  ])
