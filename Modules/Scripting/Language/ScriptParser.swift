import Foundation

/// Turns script text into commands ready to run, collecting every syntax and usage
/// error with its line instead of stopping at the first.
///
/// A script is one command per line. A line ending in `\` continues on the next; a
/// command whose spec accepts a block and whose line ends in `:` takes the following
/// raw lines up to `end` (see ``BlockSpec``). Blank lines and `#` comments are skipped.
///
/// ```swift
/// let parsed = ScriptParser(registry: .standard).parse("category add Produce\nrecipe shw X")
/// parsed.statements.count  // 1
/// parsed.errors.first?.description  // "recipe: unknown subcommand 'shw'; …"
/// ```
public struct ScriptParser: Sendable {
  public let registry: CommandRegistry

  public init(registry: CommandRegistry) {
    self.registry = registry
  }

  /// Parsed commands and the errors found, both in line order.
  public struct Parsed: Sendable {
    public var statements: [Invocation] = []
    public var errors: [ScriptError] = []
  }

  /// Why a line cannot be read because of a control character other than a tab (or the
  /// carriage return of a CRLF line end), or nil.
  static func controlCharacter(in line: String) -> String? {
    var column = 0
    for scalar in line.unicodeScalars {
      column += 1
      guard scalar.properties.generalCategory == .control, scalar != "\t", scalar != "\r" else { continue }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) at column \(column)"
    }
    return nil
  }

  public func parse(_ text: String) -> Parsed {
    var parsed = Parsed()
    // CRLF line ends are one Character in Swift, which "\n" would not split.
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    var index = 0
    while index < lines.count {
      let startLine = index + 1
      var words: [Word] = []
      var source = ""
      var failed = false
      // Join continuation lines.
      var continues = false
      while index < lines.count {
        let physical = lines[index]
        index += 1
        if let problem = Self.controlCharacter(in: physical) {
          parsed.errors.append(ScriptError(.syntax, reason: problem, line: index))
          failed = true
          break
        }
        if continues, physical.trimmingCharacters(in: .whitespaces).isEmpty {
          parsed.errors.append(ScriptError(.syntax, reason: "line \(index - 1) ends with '\\' but the next line is blank", line: index - 1))
          failed = true
          continues = false
          break
        }
        do {
          let lexed = try Lexer.split(physical)
          words += lexed.words
          source += (source.isEmpty ? "" : " ") + physical.trimmingCharacters(in: .whitespaces)
          continues = lexed.continues
          if !lexed.continues { break }
          if source.hasSuffix("\\") { source.removeLast() }
        } catch {
          parsed.errors.append(ScriptError(.syntax, reason: error.reason, line: index))
          failed = true
          break
        }
      }
      if continues {
        parsed.errors.append(ScriptError(.syntax, reason: "the script ends after a '\\' that continues line \(index)", line: index))
        continue
      }
      if failed || words.isEmpty { continue }

      // A block after a line ending in ':'.
      var blockLines: [(line: Int, text: String)] = []
      let spec = registry.resolve(words).spec
      if let spec, spec.block != nil, Self.opensBlock(words) {
        words[words.count - 1].text.removeLast()
        if words[words.count - 1].text.isEmpty { words.removeLast() }
        var closed = false
        while index < lines.count {
          let raw = lines[index].trimmingCharacters(in: .whitespaces)
          index += 1
          if raw.lowercased() == "end" {
            closed = true
            break
          }
          if raw.isEmpty || raw.hasPrefix("#") { continue }
          blockLines.append((index, raw))
        }
        guard closed else {
          parsed.errors.append(
            ScriptError(
              .syntax, command: spec.name, reason: "the block opened on line \(startLine) is never closed with 'end'",
              line: startLine))
          continue
        }
      }
      do {
        parsed.statements.append(try bind(words, block: blockLines, line: startLine, text: source))
      } catch {
        parsed.errors.append(error)
      }
    }
    return parsed
  }

  /// Whether a command's words end in a bare `:` that opens its block: `… --cuisine Asian:`,
  /// `… "Mom's Lasagna":` or `… :`, but not a colon inside quotes or escaped.
  static func opensBlock(_ words: [Word]) -> Bool {
    guard let last = words.last else { return false }
    return !last.endsQuoted && last.text.hasSuffix(":")
  }

  /// Whether `text` (lines typed so far at a prompt) still needs more lines: it ends in
  /// a continuation backslash or opens a block that is not closed yet.
  public func needsMoreLines(_ text: String) -> Bool {
    let lines = text.components(separatedBy: "\n")
    var index = 0
    var open = false
    while index < lines.count {
      var words: [Word] = []
      var continues = false
      while index < lines.count {
        guard let lexed = try? Lexer.split(lines[index]) else { return false }
        index += 1
        words += lexed.words
        continues = lexed.continues
        if !continues { break }
      }
      if continues { return true }
      if let spec = registry.resolve(words).spec, spec.block != nil, Self.opensBlock(words) {
        open = true
        while index < lines.count {
          let raw = lines[index].trimmingCharacters(in: .whitespaces).lowercased()
          index += 1
          if raw == "end" {
            open = false
            break
          }
        }
      }
    }
    return open
  }

  /// Binds one command's words (and block lines) to its spec.
  func bind(_ words: [Word], block: [(line: Int, text: String)] = [], line: Int, text: String) throws(ScriptError)
    -> Invocation
  {
    let resolved = registry.resolve(words)
    guard let spec = resolved.spec else {
      throw ScriptError(.usage, command: resolved.problem?.command, reason: resolved.problem?.reason ?? "empty command", line: line)
    }
    func usage(_ argument: String?, _ reason: String) -> ScriptError {
      ScriptError(.usage, command: spec.name, argument: argument, reason: reason, line: line)
    }

    var options: [String: [String]] = [:]
    var order: [String] = []
    var positional: [Word] = []
    let known = spec.allOptions
    var rest = words.dropFirst(resolved.consumed)
    var optionsEnded = false
    let takesTail = spec.parameters.contains { $0.role == .tail }
    while let word = rest.first {
      rest = rest.dropFirst()
      if takesTail && !word.isOption && !optionsEnded {
        optionsEnded = true
      }
      if optionsEnded || !word.isOption {
        if word.isEndOfOptions && !optionsEnded {
          optionsEnded = true
        } else {
          positional.append(word)
        }
        continue
      }
      var name = String(word.text.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = known.first(where: { $0.name == name }) else {
        let names = spec.options.map { "--" + $0.name }
        let hint = names.isEmpty ? "this command takes no options besides --json and --help" : "known: " + names.joined(separator: ", ")
        let close = Similarity.closest(to: name, among: known.map(\.name)).map { "did you mean '--\($0)'? " } ?? ""
        throw usage("--\(name)", "unknown option; \(close)\(hint)")
      }
      var value = ""
      if option.takesValue {
        if let inlineValue {
          value = inlineValue
        } else if let next = rest.first, !next.isOption {
          value = next.text
          rest = rest.dropFirst()
        } else {
          throw usage("--\(name)", "needs a value (\(option.placeholder))")
        }
        switch ValueCheck.check(value, as: option.type, within: option.range) {
        case .success(let checked): value = checked
        case .failure(let problem): throw usage("--\(name)", problem.reason)
        }
      } else if let inlineValue {
        throw usage("--\(name)", "is a flag and takes no value (got '\(inlineValue)')")
      }
      if options[name] != nil && !option.isRepeatable {
        throw usage("--\(name)", "given more than once")
      }
      options[name, default: []].append(value)
      order.append(name)
    }

    // Block lines become option values.
    if let blockSpec = spec.block, let firstSection = blockSpec.sections.first {
      var section = firstSection
      for entry in block {
        let lowered = entry.text.lowercased()
        if lowered.hasSuffix(":"), let header = blockSpec.sections.first(where: { $0.name + ":" == lowered }) {
          section = header
          continue
        }
        if let heading = section.headingOption, entry.text.hasSuffix(":") {
          options[heading, default: []].append(entry.text)
          order.append(heading)
          continue
        }
        options[section.option, default: []].append(entry.text)
        order.append(section.option)
      }
    }

    if options["help"] != nil {
      return Invocation(spec: spec, arguments: [:], options: options, line: line, text: text)
    }
    let arguments = try bindPositional(positional, spec: spec, usage: usage)
    if let missing = spec.options.first(where: { $0.isRequired && options[$0.name] == nil }) {
      throw usage("--\(missing.name)", "missing; give --\(missing.name) \(missing.placeholder): \(missing.help) (usage: \(spec.usage))")
    }
    for group in spec.oneOf {
      let given = group.given(arguments: arguments, options: options)
      if given.count > 1 { throw usage(given[1], "give either \(group.text(spec)), not both") }
      if given.isEmpty && group.isRequired { throw usage(group.names[0], "missing; give \(group.text(spec))") }
    }
    return Invocation(spec: spec, arguments: arguments, options: options, optionOrder: order, line: line, text: text)
  }

  private func bindPositional(
    _ words: [Word], spec: CommandSpec, usage: (String?, String) -> ScriptError
  ) throws(ScriptError) -> [String: [String]] {
    var arguments: [String: [String]] = [:]
    var index = 0
    let keywords = Set(spec.parameters.filter { $0.role == .keyword }.map(\.name))
    for (position, parameter) in spec.parameters.enumerated() {
      let remainingKeywords = Set(spec.parameters[(position + 1)...].filter { $0.role == .keyword }.map(\.name))
      switch parameter.role {
      case .keyword:
        guard index < words.count else {
          throw usage(nil, "missing '\(parameter.name)' (usage: \(spec.usage))")
        }
        guard !words[index].quoted, words[index].text.lowercased() == parameter.name else {
          throw usage(nil, "expected '\(parameter.name)' before '\(words[index].text)' (usage: \(spec.usage))")
        }
        index += 1
      case .word:
        guard index < words.count, !(isKeyword(words[index], keywords)) else {
          if parameter.isOptional { continue }
          throw usage(parameter.name, "missing (usage: \(spec.usage))")
        }
        arguments[parameter.name] = [try checked(words[index].text, parameter, usage)]
        index += 1
      case .rest:
        var taken: [String] = []
        while index < words.count, !isKeyword(words[index], remainingKeywords) {
          taken.append(words[index].text)
          index += 1
        }
        if taken.isEmpty {
          if parameter.isOptional { continue }
          throw usage(parameter.name, "missing (usage: \(spec.usage))")
        }
        arguments[parameter.name] = [try checked(taken.joined(separator: " "), parameter, usage)]
      case .tail:
        guard index < words.count else { throw usage(parameter.name, "missing (usage: \(spec.usage))") }
        arguments[parameter.name] = [words[index...].map { $0.isOption ? $0.text : Lexer.quote($0.text) }.joined(separator: " ")]
        index = words.count
      case .words:
        var taken: [String] = []
        while index < words.count, !isKeyword(words[index], remainingKeywords) {
          taken.append(try checked(words[index].text, parameter, usage))
          index += 1
        }
        if taken.isEmpty && !parameter.isOptional {
          throw usage(parameter.name, "missing (usage: \(spec.usage))")
        }
        if !taken.isEmpty { arguments[parameter.name] = taken }
      }
    }
    if index < words.count {
      let extra = words[index...].map { Lexer.quote($0.text) }.joined(separator: " ")
      // `sync wiat`: a command that takes no argument but has subcommands was probably
      // meant to be one of them.
      let hint =
        spec.parameters.isEmpty && !registry.subcommands(of: spec.name).isEmpty
        ? registry.suggestion(words[index].text, after: spec.name) : ""
      throw usage(nil, "unexpected argument\(words.count - index > 1 ? "s" : "") \(extra)\(hint) (usage: \(spec.usage))")
    }
    return arguments
  }

  private func isKeyword(_ word: Word, _ keywords: Set<String>) -> Bool {
    !word.quoted && keywords.contains(word.text.lowercased())
  }

  private func checked(_ text: String, _ parameter: Parameter, _ usage: (String?, String) -> ScriptError) throws(ScriptError)
    -> String
  {
    switch ValueCheck.check(text, as: parameter.type, within: parameter.range) {
    case .success(let value): return value
    case .failure(let problem): throw usage(parameter.name, problem.reason)
    }
  }
}
