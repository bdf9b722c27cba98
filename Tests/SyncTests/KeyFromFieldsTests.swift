import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// The key an entity shows, and is one entity with others by, is the key its identity
/// fields give, never what a key register holds: batches of schemas before 4 are not held
/// to the key rule at the door (old builds keyed some names by rules of their own), so a
/// key they carry can disagree with its name — by an old build's bug or on purpose.
@Suite("Keys from fields")
struct KeyFromFieldsTests {
  typealias House = HostileBatchTests.Household

  /// A category named "Produce" but keyed "dairy", in a schema 3 batch.
  static func impostor() -> RecordChange {
    let stamp = Stamp(time: HostileBatchTests.pastTime, counter: 0, replica: HostileBatchTests.evil)
    return HostileBatchTests.category(
      "Produce", at: HostileBatchTests.pastTime, extra: ["normalizedName": StampedValue(value: .text("dairy"), stamp: stamp)])
  }

  static func pushOld(_ changes: [RecordChange], to house: House) throws {
    _ = try house.cloud.push(
      ChangeBatch(id: "\(HostileBatchTests.evil):1-1", replica: HostileBatchTests.evil, schemaVersion: 3, changes: changes))
  }

  @Test(arguments: TestBackend.allCases)
  func aKeyThatDisagreesWithItsNameNeitherHidesNorTakesTheKeysEntity(_ backend: TestBackend) throws {
    let house = try House(backend, devices: 2)
    let dairy = try house.devices[0].library.categories.getOrCreate("Dairy")
    _ = try house.devices[0].library.categories.getOrCreate("Produce")
    try house.engine(0).sync()
    try house.engine(1).sync()
    try Self.pushOld([Self.impostor()], to: house)

    for index in 0..<2 {
      let report = try house.engine(index).sync()
      #expect(report.setAside == 0, "device \(index)")
      #expect(try house.categories(index) == ["Dairy", "Produce"], "device \(index)")
      // `category add Dairy` finds the Dairy every device made, not the impostor.
      let found = try house.devices[index].library.categories.getOrCreate("Dairy")
      #expect(found.id == dairy.id && found.displayName == "Dairy", "device \(index)")
      #expect(try house.devices[index].library.categories.find("produce")?.normalizedName == "produce")
    }
  }

  /// A weekly list renamed by a build that knew no list keys (schema 3): the name arrives
  /// without a key, and the list shows under the key its new name gives.
  @Test(arguments: TestBackend.allCases)
  func aListRenamedWithoutItsKeyShowsTheKeyOfItsNewName(_ backend: TestBackend) throws {
    let house = try House(backend, devices: 2)
    let list = try house.devices[0].library.lists.create("Weekly", week: "2026-W20")
    try house.engine(0).sync()
    try house.engine(1).sync()
    let rename = RecordChange(
      kind: .weeklyList, id: list.id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [
        "displayName": StampedValue(
          value: .text("Groceries"), stamp: Stamp(time: Fixtures.epoch.millisecondsSince1970, counter: 0, replica: HostileBatchTests.evil))
      ])
    try Self.pushOld([rename], to: house)
    for index in 0..<2 {
      try house.engine(index).sync()
      let row = try #require(try house.devices[index].library.store.read { try $0.record(.weeklyList, id: list.id) })
      #expect(row["displayName"].text == "Groceries")
      #expect(row.semanticKey == row.keyOfItsName && row.semanticKey != nil, "device \(index): \(String(describing: row.semanticKey))")
      #expect(try house.devices[index].library.lists.find("groceries")?.id == list.id)
    }
  }

  /// A store whose key index holds the key registers as an earlier version wrote them is
  /// indexed again by the keys the fields give, once, and its view follows.
  @Test(arguments: TestBackend.allCases)
  func aStoreIndexedByKeyRegistersIsIndexedAgainOnce(_ backend: TestBackend) throws {
    let house = try House(backend, devices: 1)
    let dairy = try house.devices[0].library.categories.getOrCreate("Dairy")
    try house.engine(0).sync()
    let impostor = Self.impostor()
    try Self.pushOld([impostor], to: house)
    try house.engine(0).sync()
    let store = house.devices[0].library.store
    // As an earlier version indexed it: under its key register.
    try store.write(origin: .sync) { writer in
      let text = try #require(try writer.syncStates(.category, ids: [impostor.id])[impostor.id])
      try writer.setSyncState(text, key: "dairy", kind: .category, id: impostor.id)
      try writer.setMetadata(nil, forKey: KeyIndexConversion.doneKey)
    }
    try house.engine(0).sync()
    let holders = try store.read { try $0.syncStateHolders(.category, keys: ["dairy", "produce"]) }
    #expect(holders["dairy"] == [dairy.id])
    #expect(holders["produce"] == [impostor.id])
    #expect(try store.read { try $0.metadata(forKey: KeyIndexConversion.doneKey) } == KeyIndexConversion.done)
    #expect(try house.categories(0) == ["Dairy", "Produce"])
    #expect(try SyncVerifier(store: store).verify().isClean)
  }
}
