public import Foundation

/// Where the apps keep the user's data: `$XDG_DATA_HOME/forager`, else
/// `~/.local/share/forager`.
public enum DefaultStore {
  /// The data directory for an environment.
  public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg).appendingPathComponent("forager")
    }
    let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
    return home.appendingPathComponent(".local/share/forager")
  }

  /// The default store file.
  public static func storeFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    directory(environment: environment).appendingPathComponent("forager.sqlite")
  }

  /// The REPL's history file.
  public static func historyFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    directory(environment: environment).appendingPathComponent("history")
  }

  /// Creates the data directory when missing; returns whether the store file is new.
  public static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
    let directory = directory(environment: environment)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return !FileManager.default.fileExists(atPath: storeFile(environment: environment).path)
  }
}

/// The program's version, printed by `--version`.
public enum Forager {
  public static let version = "0.1.0"
}
