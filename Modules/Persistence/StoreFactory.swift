public import Foundation

/// A storage backend that can open stores from a location string.
///
/// Each backend module provides one (`SQLiteBackend`, `MemoryBackend`); a new backend is
/// added by writing a module with a conforming type and passing it to ``StoreFactory``.
public protocol StoreBackend: Sendable {
  /// The scheme that selects this backend in a location: "sqlite", "memory".
  var scheme: String { get }
  /// One line for help texts.
  var summary: String { get }
  /// Opens (creating when needed) the store at `path` (empty for schemes without one),
  /// dating its change log with `clock`.
  func open(path: String, clock: @escaping StoreClock) throws -> any Store
}

/// Opens stores by location, choosing the backend from the location's scheme.
///
/// Locations: `memory` (a new, empty in-memory store), `sqlite:/path/file.sqlite`, or a
/// bare path, which means the default backend (the first one given).
///
/// ```swift
/// let factory = StoreFactory(backends: [SQLiteBackend(), MemoryBackend()])
/// let store = try factory.open("sqlite:/tmp/kitchen.sqlite")
/// ```
public struct StoreFactory: Sendable {
  /// The backends, the default one first.
  public let backends: [any StoreBackend]
  /// The clock every store this factory opens dates its change log with.
  public let clock: StoreClock

  /// A factory over `backends`; the first is the default for a bare path.
  public init(backends: [any StoreBackend], clock: @escaping StoreClock = { Date() }) {
    self.backends = backends
    self.clock = clock
  }

  /// Opens the store at `location`.
  /// - Throws: ``StoreError/unavailable(location:reason:)`` for an unknown scheme or an
  ///   empty location, and whatever the backend throws.
  public func open(_ location: String) throws -> any Store {
    let trimmed = location.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw StoreError.unavailable(location: location, reason: "no location given") }
    if let backend = backends.first(where: { $0.scheme == trimmed }) {
      return try backend.open(path: "", clock: clock)
    }
    if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter }),
      trimmed.distance(from: trimmed.startIndex, to: colon) > 1
    {
      let scheme = String(trimmed[..<colon])
      guard let backend = backends.first(where: { $0.scheme == scheme }) else {
        let known = backends.map(\.scheme).joined(separator: ", ")
        throw StoreError.unavailable(location: location, reason: "unknown backend '\(scheme)' (known: \(known))")
      }
      return try backend.open(path: String(trimmed[trimmed.index(after: colon)...]), clock: clock)
    }
    guard let fallback = backends.first else {
      throw StoreError.unavailable(location: location, reason: "no storage backend is available")
    }
    return try fallback.open(path: trimmed, clock: clock)
  }
}
