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

  init(name: String, location: String, store: any Store, library: Library) {
    self.name = name
    self.location = location
    self.store = store
    self.library = library
  }

  func replaceStore(location: String, store: any Store, library: Library) {
    self.location = location
    self.store = store
    self.library = library
  }
}
