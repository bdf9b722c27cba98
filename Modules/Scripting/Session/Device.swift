import Foundation
public import Persistence
public import Repositories

/// One simulated device in a session: a name, its own store, and the ``Library`` over it.
public final class Device {
  public let name: String
  /// The store's location as given: "memory", "sqlite:/path/file.sqlite".
  public private(set) var location: String
  public private(set) var store: any Store
  /// The library commands use. Inside an atomic batch run it is bound to the run's
  /// open transaction.
  public internal(set) var library: Library
  /// Notes what the library's writes change, command by command, for `undo`.
  let journal: ChangeJournal

  init(name: String, location: String, store: any Store, now: @escaping @Sendable () -> Date) {
    self.name = name
    self.location = location
    self.store = store
    let journal = ChangeJournal()
    self.journal = journal
    self.library = Library(store: store, now: now, journal: journal)
  }

  func replaceStore(location: String, store: any Store, now: @escaping @Sendable () -> Date) {
    self.location = location
    self.store = store
    self.library = Library(store: store, now: now, journal: journal)
  }
}
