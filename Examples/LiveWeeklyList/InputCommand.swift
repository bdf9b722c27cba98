import Foundation
import Repositories

/// One line typed at the terminal.
enum InputCommand: Equatable {
  case add(String)
  case check(String)
  case uncheck(String)
  case help
  case quit

  /// The longest line read, in characters.
  static let lineLimit = 500

  static let usage = "commands: add ITEM (\"add 2 lb tomatoes\"), check ITEM, uncheck ITEM, help, quit"

  /// The command on `line`; nil for a blank line.
  /// - Throws: ``InputError`` naming what is wrong with the line.
  init?(_ line: String) throws(InputError) {
    guard line.count <= Self.lineLimit else {
      throw InputError("a line holds at most \(Self.lineLimit) characters; this one has \(line.count)")
    }
    let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
    guard let word = words.first else { return nil }
    let rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
    switch word.lowercased() {
    case "add", "check", "uncheck":
      guard !rest.isEmpty else { throw InputError("'\(word)' needs an item: \(word) ITEM") }
      self = word.lowercased() == "add" ? .add(rest) : word.lowercased() == "check" ? .check(rest) : .uncheck(rest)
    case "help", "quit":
      guard rest.isEmpty else { throw InputError("'\(word)' takes nothing after it") }
      self = word.lowercased() == "help" ? .help : .quit
    default:
      throw InputError("unknown command '\(word)'; \(Self.usage)")
    }
  }

  /// Writes the command through the repositories. The repositories check the item's name
  /// (length, control characters) and amount, and write nothing when one is wrong.
  func apply(to lists: WeeklyListRepository, list: String) throws {
    switch self {
    case .add(let item): _ = try lists.addItem(item, to: list)
    case .check(let item): _ = try lists.check(item, on: list)
    case .uncheck(let item): _ = try lists.check(item, on: list, done: false)
    case .help: Output.say(Self.usage)
    case .quit: break
    }
  }
}

/// What is wrong with a typed line.
struct InputError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
