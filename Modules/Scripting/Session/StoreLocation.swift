public import Foundation

/// Where a front end's store is, from its options: `--store PATH`, `--memory`, or neither
/// (forager.sqlite in the user's data directory, ``DefaultStore``). Both front ends
/// resolve their options here and open the session at ``location``.
///
/// ```swift
/// let store = try StoreLocation(store: nil, memory: false)
/// let session = try Session(location: store.location)
/// print("store: \(store)")  // "store: /home/me/.local/share/forager/forager.sqlite (created)"
/// ```
public struct StoreLocation: Sendable, Equatable, CustomStringConvertible {
  /// What the options chose.
  public enum Choice: Sendable, Equatable {
    /// `--memory`: a fresh in-memory store; nothing is saved.
    case memory
    /// `--store PATH`; `isNew`: no file was there when the options were read.
    case path(String, isNew: Bool)
    /// Neither option: the default store file; `created`: it did not exist before.
    case defaultFile(URL, created: Bool)
  }

  /// The data directory of the default store could not be created.
  public struct Failure: Error, CustomStringConvertible {
    /// The directory.
    public let directory: URL
    /// Why, as the file system said.
    public let underlying: any Error

    /// "cannot create /home/me/.local/share/forager: …".
    public var description: String { "cannot create \(directory.path): \(underlying)" }
  }

  /// What the options chose.
  public let choice: Choice

  /// The problem with the options themselves, checked before anything runs: `--store` and
  /// `--memory` together. Nil when they agree.
  public static func conflict(store: String?, memory: Bool) -> String? {
    store != nil && memory ? "give either --store or --memory, not both" : nil
  }

  /// The store the options name; for neither option, creates the data directory when it
  /// is missing.
  /// - Throws: ``Failure`` when it cannot.
  public init(
    store: String?, memory: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(Failure) {
    if memory {
      choice = .memory
    } else if let store {
      choice = .path(store, isNew: !FileManager.default.fileExists(atPath: store))
    } else {
      let created: Bool
      do {
        created = try DefaultStore.prepare(environment: environment)
      } catch {
        throw Failure(directory: DefaultStore.directory(environment: environment), underlying: error)
      }
      choice = .defaultFile(DefaultStore.storeFile(environment: environment), created: created)
    }
  }

  /// The location ``Session/init(location:factory:registry:now:)`` opens.
  public var location: String {
    switch choice {
    case .memory: "memory"
    case .path(let path, _): Session.location(forStorePath: path)
    case .defaultFile(let file, _): "sqlite:" + file.path
    }
  }

  /// How the REPL's banner names it: "in memory (nothing is saved)", "PATH (new)",
  /// "FILE (created)".
  public var description: String {
    switch choice {
    case .memory: "in memory (nothing is saved)"
    case .path(let path, let isNew): path + (isNew ? " (new)" : "")
    case .defaultFile(let file, let created): file.path + (created ? " (created)" : "")
    }
  }
}
