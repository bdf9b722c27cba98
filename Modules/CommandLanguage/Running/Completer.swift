/// Tab completion for the REPL: command words, option names, and the names the context
/// lists (the kitchen's categories, ingredients, recipes, …) where a command expects them.
///
/// ```swift
/// Completer(context: session).candidates(before: "recipe show ", word: "Eg", inQuote: false)
/// // ["\"Egg Fried Rice\""]
/// ```
public struct Completer<Context: CommandContext> {
  /// Where the commands and names come from.
  public let context: Context

  /// A completer of `context`'s language.
  public init(context: Context) {
    self.context = context
  }

  /// What may replace `word`, the partial word under the cursor.
  /// - Parameters:
  ///   - before: the line before `word` (including any opening quote).
  ///   - word: the partial word under the cursor.
  ///   - inQuote: the word is inside quotes the terminal closes itself; return raw text.
  public func candidates(before: String, word: String, inQuote: Bool = false) -> [String] {
    var prefix = before
    if inQuote, let last = prefix.last, last == "\"" || last == "'" { prefix.removeLast() }
    guard let words = try? Lexer.split(prefix).words else { return [] }
    let registry = context.registry
    if words.isEmpty {
      return filter(registry.leadingWords, word).map { $0 }
    }
    if words.count == 1, !registry.subcommands(of: words[0].text).isEmpty {
      return filter(registry.subcommands(of: words[0].text).map { $0.words[1] }, word)
    }
    let resolution = registry.resolve(words)
    guard let spec = resolution.spec else { return [] }
    if word.hasPrefix("--") {
      return filter(spec.allOptions.map { "--" + $0.name }, word)
    }
    var positional: [Word] = []
    var rest = words.dropFirst(resolution.consumed)
    while let next = rest.first {
      rest = rest.dropFirst()
      if next.isOption {
        let name = String(next.text.dropFirst(2))
        if let option = spec.allOptions.first(where: { $0.name == name }), option.takesValue, !name.contains("=") {
          if rest.isEmpty { return complete(option.completion, word: word, typed: [], inQuote: inQuote, keyword: nil) }
          rest = rest.dropFirst()
        }
        continue
      }
      positional.append(next)
    }
    // Find the parameter the word belongs to.
    var index = 0
    for (position, parameter) in spec.parameters.enumerated() {
      let nextKeyword = spec.parameters[(position + 1)...].first { $0.role == .keyword }?.name
      switch parameter.role {
      case .keyword:
        if index < positional.count { index += 1 } else { return filter([parameter.name], word) }
      case .word:
        if index < positional.count {
          index += 1
        } else {
          return complete(parameter.completion, word: word, typed: [], inQuote: inQuote, keyword: nil)
        }
      case .rest, .words:
        var typed: [String] = []
        while index < positional.count, positional[index].quoted || positional[index].text.lowercased() != nextKeyword {
          typed.append(positional[index].text)
          index += 1
        }
        if index >= positional.count {
          let joined = parameter.role == .rest ? typed : []
          return complete(parameter.completion, word: word, typed: joined, inQuote: inQuote, keyword: typed.isEmpty ? nil : nextKeyword)
        }
      case .tail:
        return []
      }
    }
    return []
  }

  private func complete(_ completion: Completion, word: String, typed: [String], inQuote: Bool, keyword: String?) -> [String] {
    let names = self.names(for: completion, startingWith: typed.isEmpty ? word : typed.joined(separator: " ") + " " + word)
    var results: [String] = []
    if typed.isEmpty {
      for name in names where name.lowercased().hasPrefix(word.lowercased()) {
        results.append(inQuote ? name : Lexer.quote(name))
      }
    } else {
      // The name's first words are typed unquoted: offer the rest of it.
      let start = typed.joined(separator: " ") + " "
      for name in names where (start + word).lowercased().count <= name.count && name.lowercased().hasPrefix((start + word).lowercased()) {
        results.append(Self.escapeBare(String(name.dropFirst(start.count))))
      }
    }
    if let keyword, keyword.hasPrefix(word.lowercased()) { results.append(keyword) }
    return Array(Set(results)).sorted()
  }

  /// The candidates of a completion that may start with `typed`; the caller filters them.
  private func names(for completion: Completion, startingWith typed: String) -> [String] {
    switch completion {
    case .none: return []
    case .words(let words): return words
    case .commands: return context.registry.commands.map(\.name)
    case .source(let source): return context.completions(from: source, startingWith: typed)
    }
  }

  private func filter(_ candidates: [String], _ word: String) -> [String] {
    candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
  }

  /// Text safe to type after other unquoted words: spaces stay, quotes and backslashes
  /// are escaped.
  static func escapeBare(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == "\"" || character == "'" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result
  }
}
