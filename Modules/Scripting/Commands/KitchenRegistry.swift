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

/// The kitchen's command groups, in the order `help` lists them. A group is a section of
/// `help`; each command is defined in the file named for its first word (`device …` in
/// DeviceCommands.swift, with `+Part` files when one grows).
private let kitchenCommands = CommandLanguage.CommandRegistry<Session>(
  groups: [
    CommandGroup(
      "session", summary: "Session",
      commands: [
        HelpCommands.help, OpenCommands.open, OutputCommands.output, CountsCommands.counts, DuplicatesCommands.duplicates,
        QuitCommands.quit, ExitCommands.exit,
      ]),
    CommandGroup("settings", summary: "Session and device settings", commands: [SettingsCommands.units, SettingsCommands.history]),
    CommandGroup(
      "device", summary: "Devices (each has its own store)", commands: [DeviceCommands.add, DeviceCommands.use, DeviceCommands.list]),
    CommandGroup(
      "sync", summary: "Sync devices through a cloud",
      commands: [
        CloudCommands.open, SyncCommands.sync, SyncCommands.syncAll, SyncCommands.status, SyncLiveCommands.live,
        SyncWaitCommands.wait, SyncVerifyCommands.verify, DeviceCommands.offline, DeviceCommands.online,
      ]),
    CommandGroup("seed", summary: "Seed data", commands: [SeedCommands.defaults, SeedCommands.sample]),
    CommandGroup(
      "category", summary: "Grocery categories (unique by name; their order is the aisle order of lists)",
      commands: [
        CategoryCommands.add, CategoryCommands.list, CategoryCommands.show, CategoryCommands.move, CategoryCommands.order,
        CategoryCommands.rename, CategoryCommands.delete,
      ]),
    CommandGroup(
      "tag", summary: "Recipe tags (unique by name)",
      commands: [TagCommands.add, TagCommands.list, TagCommands.rename, TagCommands.delete]),
    CommandGroup(
      "ingredient", summary: "Ingredient templates (unique by canonical name; found by plurals and aliases)",
      commands: [
        IngredientCommands.add, IngredientCommands.set, IngredientCommands.alias, IngredientCommands.list, IngredientCommands.show,
        IngredientCommands.rename, IngredientCommands.delete,
      ]),
    CommandGroup(
      "book", summary: "Cookbooks (unique by title and author)",
      commands: [BookCommands.add, BookCommands.list, BookCommands.rename, BookCommands.delete]),
    CommandGroup(
      "recipe", summary: "Recipes (similar titles are detected, never merged silently)",
      commands: [
        RecipeCommands.add, RecipeCommands.show, RecipeCommands.list, RecipeCommands.search, RecipeCommands.suggest,
        RecipeCommands.cooked, RecipeCommands.set, RecipeCommands.rename, RecipeCommands.merge, RecipeCommands.duplicates,
        RecipeCommands.delete, RecipeExchangeCommands.importFiles, RecipeExchangeCommands.export,
      ]),
    CommandGroup(
      "meal", summary: "Meal planning (one meal per date and meal type)",
      commands: [
        MealCommands.plan, MealCommands.show, MealCommands.clear, MealCommands.week, MealCommands.export, MealPlanCommands.add,
        MealPlanCommands.list,
      ]),
    CommandGroup(
      "list", summary: "Weekly grocery lists (items for one ingredient are shown as one line)",
      commands: [
        ListCommands.new, ListCommands.all, ListCommands.show, ListCommands.items, ListCommands.add, ListCommands.addRecipe,
        ListPlanCommands.addPlan, ListPlanCommands.store, ListCommands.check, ListCommands.uncheck, ListCommands.remove,
        ListCommands.complete, ListCommands.reopen, ListCommands.rename, ListCommands.delete,
      ]),
    CommandGroup("watch", summary: "Show data again whenever it changes, from any source", commands: [WatchCommands.list]),
    CommandGroup(
      "pantry", summary: "What is on hand (synced): list add-recipe skips it, a list subtracts its amounts, recipe suggest counts it",
      commands: [PantryCommands.add, PantryCommands.set, PantryCommands.remove, PantryCommands.list]),
    CommandGroup(
      "store", summary: "Shops (unique by name), each with its own aisle order; list show --store follows it",
      commands: [
        StoreCommands.add, StoreCommands.list, StoreCommands.show, StoreCommands.order, StoreCommands.rename, StoreCommands.delete,
      ]),
    CommandGroup(
      "kitchen archive", summary: "Back up and restore the whole kitchen", commands: [ExportCommands.kitchen, ImportCommands.kitchen]),
    CommandGroup(
      "expect", summary: "Assertions (a failed expect stops a script with exit code 3)",
      commands: [
        ExpectCommands.count, ExpectCommands.exists, ExpectCommands.missing, ExpectCommands.field, ExpectCommands.duplicates,
        ExpectCommands.fails,
      ]),
    CommandGroup(
      "explain", summary: "Explaining identity (why two names became one record)",
      commands: [ExplainCommands.key, ExplainCommands.week, ExplainCommands.line]),
    CommandGroup(
      "history", summary: "History of records and recently deleted ones",
      commands: [HistoryCommands.history, TrashCommands.trash, TrashCommands.restore]),
    CommandGroup("restore", summary: "Restore to a point in time", commands: [RestoreCommands.restore]),
    CommandGroup("undo", summary: "Undo the session's last commands", commands: [UndoCommands.undo]),
    CommandGroup("migrate", summary: "Upgrade an old store", commands: [MigrateCommands.migrate]),
  ],
  introduction: [
    "Forager commands. 'help COMMAND' shows usage and an example; every command takes --json.",
    "Quote names with spaces (\"Mom's Lasagna\"); the last argument may be several words unquoted.",
  ])
