/// Splits one line of the command language into words, shell-like.
///
/// - Words are separated by spaces or tabs.
/// - `"double quotes"` keep spaces; inside them `\"`, `\\`, `\n` and `\t` are escapes.
/// - `'single quotes'` keep everything literally (so `"Mom's Lasagna"` needs double quotes,
///   or `'Mom'\''s'` shell-style).
/// - Outside quotes a backslash makes the next character literal.
/// - `#` at the start of a word begins a comment that runs to the end of the line.
/// - A backslash at the very end of a line continues the command on the next line.
/// - A bare `:` ending the line opens a block, after a quoted word too
///   (`recipe add "Mom's Lasagna":`); a quoted or escaped one is text (``Word/endsQuoted``).
///
/// ```swift
/// let line = try Lexer.split(#"recipe add "Mom's Lasagna" --cuisine Italian # family"#)
/// line.words.map(\.text)  // ["recipe", "add", "Mom's Lasagna", "--cuisine", "Italian"]
/// ```
public enum Lexer {
  /// The words of a line and whether it ends with a continuation backslash.
  public struct Line: Sendable, Hashable {
    /// The words of the line, quotes and escapes resolved, comments left out.
    public var words: [Word]
    /// Whether the line ends in a backslash, so the command goes on on the next line.
    public var continues: Bool
  }

  /// Why a line could not be split.
  public struct Failure: Error, Sendable, Hashable {
    /// The 1-based column where the problem is (an unterminated quote: where it opened).
    public var column: Int
    /// What is wrong, for the person at the prompt: "unterminated double quote".
    public var reason: String
    /// A failure at `column` because of `reason`.
    public init(column: Int, reason: String) {
      self.column = column
      self.reason = reason
    }
  }

  /// The words of `line` and whether it continues on the next one.
  ///
  /// - Throws: ``Failure`` for an unterminated quote, naming its column.
  public static func split(_ line: String) throws(Failure) -> Line {
    var words: [Word] = []
    var current = ""
    var quoted = false
    var startsQuoted = false
    var endsQuoted = false
    var inWord = false
    var start = 1
    var column = 0
    var characters = Array(line)
    if characters.last == "\r" { characters.removeLast() }
    var index = 0

    func finishWord() {
      if inWord {
        words.append(Word(current, quoted: quoted, startsQuoted: startsQuoted, endsQuoted: endsQuoted, column: start))
      }
      current = ""
      quoted = false
      startsQuoted = false
      endsQuoted = false
      inWord = false
    }
    func beginWord(quoting: Bool = false) {
      if !inWord {
        inWord = true
        start = column
        startsQuoted = quoting
      }
    }

    while index < characters.count {
      let character = characters[index]
      column = index + 1
      switch character {
      case " ", "\t":
        finishWord()
      case "#" where !inWord:
        index = characters.count
        continue
      case "\\":
        if index + 1 == characters.count {
          finishWord()
          return Line(words: words, continues: true)
        }
        beginWord(quoting: true)
        quoted = true
        endsQuoted = true
        current.append(characters[index + 1])
        index += 1
      case "'":
        beginWord(quoting: true)
        quoted = true
        guard let close = characters[(index + 1)...].firstIndex(of: "'") else {
          throw Failure(column: column, reason: "unterminated single quote (opened at column \(column))")
        }
        current += String(characters[(index + 1)..<close])
        endsQuoted = true
        index = close
      case "\"":
        beginWord(quoting: true)
        quoted = true
        let opened = column
        var closed = false
        index += 1
        while index < characters.count {
          let inner = characters[index]
          if inner == "\"" {
            closed = true
            break
          }
          if inner == "\\", index + 1 < characters.count {
            let next = characters[index + 1]
            switch next {
            case "n": current.append("\n")
            case "t": current.append("\t")
            case "\"", "\\": current.append(next)
            default:
              current.append("\\")
              current.append(next)
            }
            index += 2
            continue
          }
          current.append(inner)
          index += 1
        }
        guard closed else {
          throw Failure(column: opened, reason: "unterminated double quote (opened at column \(opened))")
        }
        endsQuoted = true
      default:
        beginWord()
        endsQuoted = false
        current.append(character)
      }
      index += 1
    }
    finishWord()
    return Line(words: words, continues: false)
  }

  /// The text written so that ``split(_:)`` reads it back as one word: bare when it
  /// can be, otherwise in double quotes with escapes.
  ///
  /// ```swift
  /// Lexer.quote("Egg Fried Rice")  // "\"Egg Fried Rice\""
  /// ```
  public static func quote(_ text: String) -> String {
    let special: Set<Character> = [" ", "\t", "\"", "'", "\\", "#"]
    if !text.isEmpty, !text.contains(where: { special.contains($0) || $0.isNewline }), !text.hasPrefix("--") {
      return text
    }
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default: result.append(character)
      }
    }
    return result + "\""
  }
}
