import Foundation
import Model
import Persistence
import Repositories
import TestSupport

/// A library over a fresh store of the backend, with a fixed clock.
func makeLibrary(_ backend: TestBackend) throws -> Library {
  Library(store: try backend.makeStore(), now: { Fixtures.epoch })
}

/// Runs `body`, expecting a RepositoryError, and checks that the store did not change.
func expectUnchanged(_ library: Library, _ body: () throws -> Void) throws -> RepositoryError? {
  let before = try library.store.dump()
  let log = try library.store.changeLog()
  var caught: RepositoryError?
  do {
    try body()
  } catch let error as RepositoryError {
    caught = error
  }
  guard try library.store.dump() == before, try library.store.changeLog() == log else {
    return .invalidValue(field: "test", value: "store", reason: "changed after a refused operation")
  }
  return caught
}
