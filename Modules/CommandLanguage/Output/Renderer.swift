import Foundation

/// Turns command results and errors into text for a terminal or for machines.
///
/// ```swift
/// let renderer = Renderer(colors: false)
/// print(renderer.render(result, command: "recipe list", json: false))
/// ```
public struct Renderer: Sendable {
  /// Use ANSI colours (only on a terminal, never with NO_COLOR; the app decides).
  public var colors: Bool

  /// A renderer that uses ANSI colours when `colors` is true.
  public init(colors: Bool = false) {
    self.colors = colors
  }

  /// The result as text, ending without a newline; empty when there is nothing to show.
  public func render(_ result: CommandResult, command: String, json: Bool) -> String {
    if json { return result.json(command: command).serialized }
    var blocks: [String] = []
    for part in result.parts {
      switch part {
      case .message(let text): blocks.append(text)
      case .table(let table): blocks.append(render(table))
      case .fields(_, let fields): blocks.append(render(fields))
      case .document(_, let text, _): blocks.append(text)
      case .data: continue
      }
    }
    return blocks.joined(separator: "\n")
  }

  /// An error line without its location: "error: recipe add: …". In JSON, what the
  /// command produced before it failed (``ScriptError/result``) sits beside the error.
  public func render(_ error: ScriptError, json: Bool) -> String {
    if json {
      var members: [JSONValue.Member] = [
        .init("command", .text(error.command)), .init("ok", false),
        .init(
          "error",
          [
            "kind": .string(error.kind.rawValue), "argument": .text(error.argument), "message": .string(error.description),
            "line": error.line.map { JSONValue.int($0) } ?? .null,
          ]),
      ]
      if case .object(let produced)? = error.result?.json(command: error.command ?? "") {
        members += produced.filter { $0.key != "command" && $0.key != "ok" }
      }
      return JSONValue.object(members).serialized
    }
    return paint("error:", "31;1") + " " + error.description
  }

  func render(_ table: Table) -> String {
    guard !table.rows.isEmpty else { return table.emptyText }
    let visible = table.columns.indices.filter { !table.columns[$0].jsonOnly }
    let columns = visible.map { table.columns[$0] }
    let cells = table.rows.map { row in visible.map { $0 < row.count ? Self.oneLine(row[$0].cellText) : "" } }
    var widths = columns.map { Self.width($0.title) }
    for row in cells {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], Self.width(cell))
      }
    }
    func line(_ values: [String], header: Bool) -> String {
      var pieces: [String] = []
      for (index, column) in columns.enumerated() {
        let value = index < values.count ? values[index] : ""
        let padding = String(repeating: " ", count: max(0, widths[index] - Self.width(value)))
        let isLast = index == columns.count - 1
        let text = column.alignRight ? padding + value : (isLast ? value : value + padding)
        pieces.append(header ? paint(text, "1") : text)
      }
      var joined = pieces.joined(separator: "  ")
      while joined.hasSuffix(" ") { joined.removeLast() }
      return joined
    }
    var lines = [line(columns.map(\.title), header: true)]
    lines += cells.map { line($0, header: false) }
    return lines.joined(separator: "\n")
  }

  func render(_ fields: [CommandResult.Field]) -> String {
    let shown = fields.filter { $0.value != .null && $0.value != .array([]) }
    let width = shown.map { Self.width($0.label) }.max() ?? 0
    return shown.map { field in
      let label = field.label + ":" + String(repeating: " ", count: width - Self.width(field.label))
      return paint(label, "1") + " " + Self.oneLine(field.value.cellText)
    }.joined(separator: "\n")
  }

  private func paint(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private static func oneLine(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ⏎ ")
  }

  /// Display width: wide East Asian characters and emoji take two columns.
  static func width(_ text: String) -> Int {
    text.reduce(0) { total, character in
      guard let scalar = character.unicodeScalars.first else { return total }
      let value = scalar.value
      let wide =
        (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
        || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
        || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value)
      return total + (wide ? 2 : 1)
    }
  }
}
