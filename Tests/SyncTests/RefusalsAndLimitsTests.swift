import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// A refresh of the view never leaves a row older than the state: a view the schema
/// refuses is not shown (and listed, until a later change makes it valid), and a refresh
/// that cannot finish rolls its page back with the sync position unmoved.
@Suite("Refusals and limits")
struct RefusalsAndLimitsTests {
  typealias Household = HostileBatchTests.Household

  /// Replaces `field`'s value in the state of `key` in `store`, keeping its stamp: a state
  /// an earlier build with looser rules, or a write behind sync's back, could leave.
  static func plant(_ value: FieldValue, in field: String, of key: RecordKey, in store: any Store) throws {
    try store.write(origin: .sync) { writer in
      let states = try StateStore(writer)
      var state = try #require(try states.state(key))
      let register = try #require(state[field])
      state.replace(field, with: StampedValue(value: value, stamp: register.stamp))
      _ = try states.set(state)
      try states.flush()
    }
  }

  @Test(arguments: TestBackend.allCases)
  func aViewTheSchemaRefusesIsNotShownUntilALaterChangeMakesItValid(_ backend: TestBackend) throws {
    let house = try Household(backend, devices: 2)
    let (first, second) = (house.devices[0].library, house.devices[1].library)
    _ = try first.categories.getOrCreate("Produce")
    _ = try first.categories.getOrCreate("Dairy")
    try house.engine(0).sync()
    try house.engine(1).sync()
    let produce = try #require(try second.categories.find("Produce")?.id)
    try Self.plant(.text("Produce\u{7}"), in: "displayName", of: RecordKey(kind: .category, id: produce), in: second.store)

    // Another device's edit of another field brings the refused name into the view.
    _ = try first.categories.setOrder(["Dairy", "Produce"])
    try house.engine(0).sync()
    let report = try house.engine(1).sync()
    #expect(report.errors == 1)
    #expect(try house.categories(1) == ["Dairy"], "the refused view is not shown, not left as it was")
    let unshown = try house.engine(1).unshownRecords()
    #expect(unshown.map(\.id) == [produce])
    #expect(unshown.first?.reason.hasPrefix("displayName") == true, "\(unshown)")
    #expect(try SyncVerifier(store: second.store).verify().isClean, "the reference view does not show it either")

    // A rename on the other device gives the record a valid view again.
    _ = try first.categories.rename("Produce", to: "Fresh produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    #expect(try house.categories(1) == ["Dairy", "Fresh produce"])
    #expect(try house.engine(1).unshownRecords().isEmpty)
    #expect(try SyncVerifier(store: second.store).verify().isClean)
  }

  #if DEBUG
    @Test(arguments: TestBackend.allCases)
    func aRefreshThatCannotFinishRollsThePageBack(_ backend: TestBackend) throws {
      let house = try Household(backend, devices: 2)
      _ = try house.devices[0].library.categories.getOrCreate("Produce")
      try house.engine(0).sync()
      let second = house.devices[1].library.store
      #expect(throws: SyncViewError.unfinishedRefresh(steps: 0)) {
        try SyncMutation.$active.withValue(.endlessRefresh) { try house.engine(1).sync() }
      }
      #expect(try house.categories(1).isEmpty)
      #expect(try second.read { try $0.syncInteger(ReplicaKeys.token) } == 0, "the sync position did not move")

      try house.engine(1).sync()
      #expect(try house.categories(1) == ["Produce"])
      #expect(try SyncVerifier(store: second).verify().isClean)
    }
  #endif
}
