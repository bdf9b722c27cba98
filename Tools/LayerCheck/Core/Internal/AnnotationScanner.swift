import SwiftSyntax

/// One `// layercheck:allow <reason>` comment.
struct Annotation: Equatable {
  static let marker = "layercheck:allow"

  var line: Int
  var column: Int
  var reason: String

  /// The reason if `comment` (a whole `//` comment) is an annotation; nil otherwise.
  /// `// layercheck:allow` without a reason gives "".
  static func reason(in comment: String) -> String? {
    guard comment.hasPrefix("//") else { return nil }
    let body = comment.dropFirst(2).drop { $0 == " " || $0 == "\t" }
    guard body.hasPrefix(marker) else { return nil }
    let rest = body.dropFirst(marker.count)
    guard rest.isEmpty || rest.first?.isWhitespace == true else { return nil }
    return rest.trimmingWhitespace()
  }
}

/// Finds annotations in comments only: the marker inside a string literal is not one.
enum AnnotationScanner {
  static func scan(_ tree: SourceFileSyntax, converter: SourceLocationConverter) -> [Annotation] {
    var annotations: [Annotation] = []
    func collect(_ trivia: Trivia, from start: AbsolutePosition) {
      var position = start
      for piece in trivia {
        if case .lineComment(let text) = piece, let reason = Annotation.reason(in: text) {
          let location = converter.location(for: position)
          annotations.append(Annotation(line: location.line, column: location.column, reason: reason))
        }
        position += piece.sourceLength
      }
    }
    for token in tree.tokens(viewMode: .sourceAccurate) {
      collect(token.leadingTrivia, from: token.position)
      collect(token.trailingTrivia, from: token.endPositionBeforeTrailingTrivia)
    }
    return annotations
  }
}

extension StringProtocol {
  /// The text without leading and trailing whitespace.
  func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
