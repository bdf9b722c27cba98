import Foundation
import Model
import Persistence
import Repositories
import SyncMemory
import TestSupport
import Testing

@testable import Sync

/// After stamping, a record created here whose row already shows its view, with nothing
/// depending on it, is not computed again (`ViewUpdater.showsAsWritten`); every other
/// created record is.
@Suite struct ShownAsWrittenTests {
  /// Stamps the store's local changes as `stampOutbox` does, and runs `body` in the same
  /// transaction with the stamping, its states and the view updater that would follow.
  static func stamping<T>(_ store: any Store, _ body: (Stamper, StateStore, ViewUpdater) throws -> T) throws -> T {
    try store.write(origin: .sync) { writer in
      let replica = try writer.ensureReplicaID { "replica-a" }
      let states = try StateStore(writer)
      let components = IdentityComponents(states: states)
      var stamper = Stamper(replica: replica, clock: try writer.replicaClock(limit: .max, now: .max), now: Fixtures.epoch, offset: 0)
      _ = try stamper.stamp(writer, states, components)
      return try body(stamper, states, ViewUpdater(components: components, now: Fixtures.epoch))
    }
  }

  /// Asks, for each record the stamping created, whether its row is shown as written.
  /// `prepare` runs first (to give another record's state a key, or to note a dependency).
  static func stamped(
    _ store: any Store, prepare: (StateStore, ViewUpdater) throws -> Void = { _, _ in }
  ) throws -> [String: Bool] {
    try stamping(store) { stamper, states, view in
      try prepare(states, view)
      var answers: [String: Bool] = [:]
      for key in stamper.created {
        let row = try #require(stamper.rows[key])
        let name = row["displayName"].text ?? key.id.uuidString
        answers[name] = try view.showsAsWritten(key, row: row)
      }
      return answers
    }
  }

  /// A store where two templates were created, tomato and basil; the tomato.
  static func tomatoAndBasil(_ backend: TestBackend) throws -> (store: any Store, tomato: IngredientTemplate) {
    let store = try backend.makeStore()
    let library = Library(store: store, now: { Fixtures.epoch }, ids: .seeded(1))
    let tomato = try library.ingredients.getOrCreate("tomato")
    _ = try library.ingredients.getOrCreate("basil")
    return (store, tomato)
  }

  @Test(arguments: TestBackend.allCases)
  func aPlainNewRecordIsShownAsWritten(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let library = Library(store: store, now: { Fixtures.epoch }, ids: .seeded(1))
    _ = try library.ingredients.getOrCreate("saffron", kind: .spice)
    _ = try library.ingredients.getOrCreate("egg", kind: .protein, aliases: ["hen egg"], isStaple: true)
    _ = try library.categories.getOrCreate("Produce")
    // Created with its category (one insert), but it refers to it: computed.
    _ = try library.ingredients.getOrCreate("tomato", category: "Dairy")
    // Created, then renamed: two changes, so its state is not its insert alone.
    _ = try library.ingredients.getOrCreate("basil")
    _ = try library.ingredients.rename("basil", to: "thai basil")
    let answers = try Self.stamped(store)
    #expect(answers == ["saffron": true, "egg": true, "Produce": true, "Dairy": true, "tomato": false])
  }

  @Test(arguments: TestBackend.allCases)
  func aRecordThatRefersToAnotherIsComputed(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let library = Library(store: store, now: { Fixtures.epoch }, ids: .seeded(1))
    _ = try library.recipes.create(RecipeDraft(name: "Soup", ingredients: ["2 leeks"]))
    let answers = try Self.stamped(store)
    // The line refers to its recipe and its template; the recipe and the template (inserted
    // already counted as used) refer to nothing.
    let line = try #require(try store.read { try $0.fetch(RecordQuery(.recipeIngredient)) }.first)
    #expect(answers == [line.id.uuidString: false, "Soup": true, "leek": true])
  }

  @Test(arguments: TestBackend.allCases)
  func aRecordWhoseKeyAnotherStateHoldsIsComputed(_ backend: TestBackend) throws {
    let (store, tomato) = try Self.tomatoAndBasil(backend)
    let row = try #require(try store.read { try $0.record(.ingredientTemplate, id: tomato.id) })
    let answers = try Self.stamped(store) { states, _ in
      // Another record (from another device, say) holds the tomato's key.
      var other = RecordState(
        kind: .ingredientTemplate, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: row.meta.ownerID,
        sharingScope: row.meta.sharingScope)
      for (name, value) in row.fields { other.write(name, StampedValue(value: value, stamp: Stamp(time: 1, counter: 0, replica: "b"))) }
      try states.set(other)
    }
    #expect(answers == ["tomato": false, "basil": true])
  }

  @Test(arguments: TestBackend.allCases)
  func aRecordOthersDependOnIsComputed(_ backend: TestBackend) throws {
    let (store, tomato) = try Self.tomatoAndBasil(backend)
    let answers = try Self.stamped(store) { _, view in
      // A line that arrived before the template is shown other than as written until now.
      try view.noteDependency(
        of: RecordKey(kind: .recipeIngredient, id: UUID()), on: RecordKey(kind: .ingredientTemplate, id: tomato.id))
    }
    #expect(answers == ["tomato": false, "basil": true])
  }

  /// The debug check behind the shortcut fails when a row is not its view.
  @Test(arguments: TestBackend.allCases)
  func theCheckFailsForARowThatIsNotTheView(_ backend: TestBackend) throws {
    let store = try backend.makeStore()
    let library = Library(store: store, now: { Fixtures.epoch }, ids: .seeded(1))
    let saffron = try library.ingredients.getOrCreate("saffron", kind: .spice)
    try Self.stamping(store) { stamper, _, view in
      let key = RecordKey(kind: .ingredientTemplate, id: saffron.id)
      var row = try #require(stamper.rows[key])
      #expect(view.viewIsRow(key, row))
      row["ingredientKind"] = .text("herb")
      #expect(!view.viewIsRow(key, row))
    }
  }
}

/// Another device's change the schema refuses (a kind no template has) is set aside before
/// it is joined, so no row is written from it; one that leaves a required field unwritten
/// shows nothing; the sync goes on and everything else is shown.
@Suite struct RefusedViewTests {
  static func template(_ name: String, kind: String) -> RecordChange {
    let stamp = Stamp(time: 1_700_000_000_000, counter: 0, replica: "other")
    let fields: [String: FieldValue] = [
      RecordChange.existsField: .bool(true), "displayName": .text(name), "canonicalName": .text(name), "ingredientKind": .text(kind),
    ]
    return RecordChange(
      kind: .ingredientTemplate, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .shared,
      fields: fields.mapValues { StampedValue(value: $0, stamp: stamp) })
  }

  @Test(arguments: TestBackend.allCases)
  func aChangeTheSchemaRefusesIsSetAsideAndTheRestIsShown(_ backend: TestBackend) throws {
    let cloud = InMemoryCloud()
    let bad = Self.template("moonrock", kind: "mineral"), good = Self.template("saffron", kind: "spice")
    let stamp = Stamp(time: 1_700_000_000_000, counter: 0, replica: "other")
    let nameless = RecordChange(
      kind: .ingredientTemplate, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .shared,
      fields: [RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp)])
    _ = try cloud.push(ChangeBatch(id: "other:1-3", replica: "other", schemaVersion: 3, changes: [bad, good, nameless]))
    let store = try backend.makeStore()
    let report = try SyncEngine(store: store, cloud: cloud, deviceName: "phone").sync()
    #expect(report.errors == 0)
    #expect(report.setAside == 1)
    try store.read { (reader) throws in
      #expect(try reader.record(.ingredientTemplate, id: bad.id) == nil)
      #expect(try reader.record(.ingredientTemplate, id: nameless.id) == nil)
      #expect(try reader.record(.ingredientTemplate, id: good.id)?["ingredientKind"] == .text("spice"))
    }
  }
}
