import Model

extension RecordQuery {
  /// The query with the texts its filters compare in NFC (`Model/ValueRules/canonical(_:)`),
  /// the form stores hold: a search typed in another form ("e" + U+0300 for "è") finds
  /// what it names, and every backend answers it alike (SQLite compares bytes, Swift's
  /// `String` canonical equivalence). A query whose texts are NFC already is returned as
  /// it is.
  package var canonical: RecordQuery {
    guard filters.contains(where: \.needsCanonicalText) else { return self }
    var query = self
    query.filters = filters.map(\.canonical)
    return query
  }
}

extension RecordFilter {
  fileprivate var needsCanonicalText: Bool {
    switch self {
    case .equals(_, let value): value.canonicalized != nil
    case .contains(_, let text), .hasElement(_, let text), .hasPrefix(_, let text): !ValueRules.isCanonical(text)
    case .references, .hasNormalizedName: false
    case .anyOf(let filters): filters.contains(where: \.needsCanonicalText)
    }
  }

  fileprivate var canonical: RecordFilter {
    switch self {
    case .equals(let field, let value): .equals(field, value.canonical)
    case .contains(let field, let text): .contains(field, ValueRules.canonical(text))
    case .hasElement(let field, let text): .hasElement(field, ValueRules.canonical(text))
    case .hasPrefix(let field, let text): .hasPrefix(field, ValueRules.canonical(text))
    case .references, .hasNormalizedName: self
    case .anyOf(let filters): .anyOf(filters.map(\.canonical))
    }
  }
}
