/// What a command produced, as data: front ends choose how to show it (an aligned
/// table on a terminal, JSON for machines) with a ``Renderer``.
///
/// ```swift
/// CommandResult(.message("created category 'Produce'"), .fields(key: "category", [...]))
/// ```
public struct CommandResult: Sendable, Hashable {
  /// What the command produced, in the order a terminal shows it.
  public var parts: [Part]
  /// The session should end (`quit`).
  public var quits = false

  /// A result of `parts`, in order.
  public init(_ parts: Part...) { self.parts = parts }
  /// A result of `parts`, in order, from an array built up by the command.
  public init(parts: [Part]) { self.parts = parts }

  /// A result that shows nothing (and in JSON only `command` and `ok`).
  public static let empty = CommandResult(parts: [])

  /// One piece of a result: a message, a table, fields, data or a document.
  public enum Part: Sendable, Hashable {
    /// A sentence for people; in JSON, one of the "messages".
    case message(String)
    /// Rows with named columns; in JSON, an array of objects under `table.key`.
    case table(Table)
    /// Labelled values of one thing; in JSON, an object under `key`.
    case fields(key: String, [Field])
    /// Extra data only for JSON, under `key`.
    case data(key: String, JSONValue)
    /// A document the command wrote (a JSON-LD export): its text as it is on a terminal;
    /// in JSON, the document itself as a value under `key`, not a string to parse again.
    case document(key: String, text: String, JSONValue)
  }

  /// One labelled value: shown as "label: value", keyed by `key` in JSON.
  public struct Field: Sendable, Hashable {
    /// The key of the value in JSON: "servings".
    public let key: String
    /// The label a terminal shows before the value: "servings".
    public let label: String
    /// The value, shown as text on a terminal and as itself in JSON.
    public let value: JSONValue
    /// A field labelled by its key.
    public init(_ key: String, _ value: JSONValue) {
      self.init(key, label: key, value)
    }
    /// A field whose terminal label differs from its JSON key.
    public init(_ key: String, label: String, _ value: JSONValue) {
      self.key = key
      self.label = label
      self.value = value
    }
  }

  /// The result as one JSON object: `{"command": …, "ok": true, …}`.
  public func json(command: String) -> JSONValue {
    var members: [JSONValue.Member] = [.init("command", .string(command)), .init("ok", true)]
    let messages = parts.compactMap { part -> JSONValue? in
      if case .message(let text) = part { return .string(text) }
      return nil
    }
    if !messages.isEmpty { members.append(.init("messages", .array(messages))) }
    for part in parts {
      switch part {
      case .message: continue
      case .table(let table): members.append(.init(table.key, table.json))
      case .fields(let key, let fields): members.append(.init(key, .object(fields.map { .init($0.key, $0.value) })))
      case .data(let key, let value), .document(let key, _, let value): members.append(.init(key, value))
      }
    }
    return .object(members)
  }
}

/// Rows of values under named columns.
public struct Table: Sendable, Hashable {
  /// One column: its JSON key, its heading, and where it shows.
  public struct Column: Sendable, Hashable {
    /// The JSON key.
    public let key: String
    /// The heading on a terminal.
    public let title: String
    /// Whether a terminal aligns the column right (numbers).
    public let alignRight: Bool
    /// Only in JSON (ids, raw values), not on a terminal.
    public let jsonOnly: Bool
    /// Only on a terminal (a heading repeated data holds elsewhere), not in JSON.
    public let tableOnly: Bool
    /// A column keyed `key` in JSON, headed `title` (the key in capitals by default) on a terminal.
    public init(_ key: String, _ title: String? = nil, alignRight: Bool = false, jsonOnly: Bool = false, tableOnly: Bool = false) {
      self.key = key
      self.title = title ?? key.uppercased()
      self.alignRight = alignRight
      self.jsonOnly = jsonOnly
      self.tableOnly = tableOnly
    }
  }

  /// The JSON key the rows appear under: "recipes".
  public let key: String
  /// The columns, in the order a terminal shows them.
  public let columns: [Column]
  /// The rows, one value per column.
  public let rows: [[JSONValue]]
  /// Shown on a terminal instead of an empty table: "no recipes".
  public let emptyText: String

  /// A table of `rows` under `columns`, keyed `key` in JSON.
  public init(key: String, columns: [Column], rows: [[JSONValue]], emptyText: String) {
    self.key = key
    self.columns = columns
    self.rows = rows
    self.emptyText = emptyText
  }

  /// The rows as a JSON array of objects, one member per column that is not terminal-only.
  public var json: JSONValue {
    .array(rows.map { row in .object(zip(columns, row).filter { !$0.0.tableOnly }.map { .init($0.key, $1) }) })
  }
}
