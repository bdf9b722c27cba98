import Foundation

/// Every command a language knows, found by its words; `Context` is what the commands
/// run against.
///
/// The parser, `help`, completion and did-you-mean read specs from here, so a new command
/// is one spec in one group.
public struct CommandRegistry<Context>: Sendable {
  /// The groups, in the order `help` lists them.
  public let groups: [CommandGroup<Context>]
  /// Every command of every group.
  public let commands: [CommandSpec<Context>]
  /// The lines `help` prints above the list of commands.
  public let introduction: [String]

  /// A registry of `groups`; `introduction` heads the `help` overview.
  public init(groups: [CommandGroup<Context>], introduction: [String] = []) {
    self.groups = groups
    self.commands = groups.flatMap(\.commands)
    self.introduction = introduction
  }

  /// The command named exactly `name` ("recipe add").
  public func command(named name: String) -> CommandSpec<Context>? {
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
  public func subcommands(of word: String) -> [CommandSpec<Context>] {
    commands.filter { $0.words.count > 1 && $0.words[0] == word.lowercased() }
  }

  struct Resolution {
    var spec: CommandSpec<Context>?
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
