import Foundation

/// Every command the language knows, found by its words.
///
/// A new command group is one file declaring a ``CommandGroup`` plus its line in
/// ``standard``; the parser, `help`, completion and the docs read specs from here.
public struct CommandRegistry: Sendable {
  public let groups: [CommandGroup]
  public let commands: [CommandSpec]

  public init(groups: [CommandGroup]) {
    self.groups = groups
    self.commands = groups.flatMap(\.commands)
  }

  /// The full language.
  public static let standard = CommandRegistry(groups: [
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
  ])

  /// The command named exactly `name` ("recipe add").
  public func command(named name: String) -> CommandSpec? {
    let wanted = name.split(separator: " ").joined(separator: " ").lowercased()
    return commands.first { $0.name == wanted }
  }

  /// The first words of every command: "recipe", "help", "open".
  public var leadingWords: [String] {
    var seen: [String] = []
    for command in commands where !seen.contains(command.words[0]) { seen.append(command.words[0]) }
    return seen
  }

  /// The commands whose first word is `word`.
  public func subcommands(of word: String) -> [CommandSpec] {
    commands.filter { $0.words.count > 1 && $0.words[0] == word.lowercased() }
  }

  struct Resolution {
    var spec: CommandSpec?
    /// Words the command name used.
    var consumed: Int
    var problem: (command: String?, reason: String)?
  }

  /// The command a line's leading words name, the longest name first.
  func resolve(_ words: [Word]) -> Resolution {
    guard let first = words.first else { return Resolution(spec: nil, consumed: 0, problem: (nil, "empty command")) }
    let head = first.text.lowercased()
    if words.count > 1, !words[1].quoted, let spec = command(named: head + " " + words[1].text.lowercased()) {
      return Resolution(spec: spec, consumed: 2)
    }
    if let spec = command(named: head), !first.quoted {
      return Resolution(spec: spec, consumed: 1)
    }
    let verbs = subcommands(of: head)
    if !verbs.isEmpty {
      let list = verbs.map { $0.words[1] }.joined(separator: ", ")
      if words.count > 1 {
        let reason = "unknown subcommand '\(words[1].text)'\(suggestion(words[1].text, after: head)); one of \(list)"
        return Resolution(spec: nil, consumed: 0, problem: (head, reason))
      }
      return Resolution(spec: nil, consumed: 0, problem: (head, "missing subcommand; one of \(list)"))
    }
    return Resolution(
      spec: nil, consumed: 0,
      problem: (nil, "unknown command '\(first.text)'\(suggestion(first.text)); type 'help' for the list"))
  }

  /// "; did you mean 'recipe'?" for a command's first word close to a known one, or "".
  func suggestion(_ typed: String) -> String {
    guard let best = Similarity.closest(to: typed, among: leadingWords) else { return "" }
    return "; did you mean '\(best)'?"
  }

  /// "; did you mean 'recipe show'?" for a subcommand of `head` close to the one typed
  /// (compared word to word: `category xyz` is not close to `category add`), or "".
  func suggestion(_ typed: String, after head: String) -> String {
    let verbs = subcommands(of: head).map { $0.words[1] }
    guard let best = Similarity.closest(to: typed, among: verbs) else { return "" }
    return "; did you mean '\(head.lowercased()) \(best)'?"
  }
}
