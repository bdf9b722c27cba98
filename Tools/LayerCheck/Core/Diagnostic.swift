/// A violation at a place in a file, printed the way compilers print errors so that
/// editors and `swift build` show it at the right line.
public struct LayerDiagnostic: Sendable, Equatable, CustomStringConvertible {
  public var path: String
  /// 1-based line; nil for findings about a whole file (`Package.swift: error: …`).
  public var line: Int?
  /// 1-based column (UTF-8), as the Swift compiler counts it.
  public var column: Int?
  public var message: String

  public init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `path:line:column: error: message`.
  public var description: String {
    var location = path
    if let line {
      location += ":\(line)"
      if let column {
        location += ":\(column)"
      }
    }
    return "\(location): error: \(message)"
  }
}

/// One use of the escape hatch, `// layercheck:allow <reason>`, listed in every summary.
public struct Allowance: Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var line: Int
  public var reason: String
  /// The violations on that line that the annotation let through.
  public var suppressed: [String]

  public init(path: String, line: Int, reason: String, suppressed: [String]) {
    self.path = path
    self.line = line
    self.reason = reason
    self.suppressed = suppressed
  }

  public var description: String {
    "\(path):\(line): layercheck:allow \(reason)"
  }
}
