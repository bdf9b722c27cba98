public import CommandLanguage
import Model
import Persistence
import Repositories

/// The session is what kitchen commands run against: it records each command's undo
/// step, has live devices push what a command wrote, names a repository's errors with a
/// close name, and completes record and device names.
extension Session: CommandContext {
  /// The session-wide output mode is JSON (`output json`, `forager-batch --json`).
  public var printsJSON: Bool { outputMode == .json }

  /// `forager> `, with the current device when there are several.
  public var prompt: String {
    devices.count > 1 ? "forager[\(current.name)]> " : "forager> "
  }

  /// Runs the command's action, recording its undo step; a live device pushes what it
  /// wrote after the debounce.
  public func perform(_ invocation: CommandLanguage.Invocation<Session>) throws -> CommandResult {
    let result = try recordingUndo(of: invocation) { try invocation.spec.run(invocation, in: self) }
    if !live.drivers.isEmpty { noteLiveWrites() }
    return result
  }

  /// The error's reason; for a record not found, "did you mean" a close name of its kind.
  public func reason(for error: any Error) -> String {
    var reason = Self.plainReason(for: error)
    if case RepositoryError.notFound(let kind, let name) = error {
      reason += NameSuggestion.text(for: name, kind: kind, in: library)
    }
    return reason
  }

  /// The readable reason of any error a repository or store throws.
  static func plainReason(for error: any Error) -> String {
    switch error {
    case let error as RepositoryError: error.description
    case let error as StoreError: error.description
    case let error as CustomStringConvertible: error.description
    default: String(describing: error)
    }
  }

  /// The session's device names, or the names of one kind of record in the current store,
  /// read by an indexed prefix query: completing in a store of 100k names reads the few
  /// that match.
  public func completions(from source: String, startingWith typed: String) -> [String] {
    if source == KitchenValues.devicesSource { return devices.map(\.name) }
    guard source.hasPrefix(KitchenValues.namesSource),
      let kind = EntityKind(rawValue: String(source.dropFirst(KitchenValues.namesSource.count)))
    else { return [] }
    return (try? library.names(of: kind, startingWith: Self.storePrefix(typed))) ?? []
  }

  /// The part of `typed` the store's prefix query folds as the completer does: its leading
  /// ASCII characters (the store folds ASCII letter case only; `lowercased()` folds more).
  static func storePrefix(_ typed: String) -> String {
    String(String.UnicodeScalarView(typed.unicodeScalars.prefix { $0.isASCII }))
  }
}
