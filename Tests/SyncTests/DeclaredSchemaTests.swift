import Foundation
import GRDB
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// A batch is held to what its declared schema could hold (`SchemaHistory`): a change of a
/// kind, or a register of a field, that arrived with a later schema is refused at the door
/// and set aside on pull, so declaring an old schema carries nothing an old build could not
/// have written.
@Suite("Declared schemas")
struct DeclaredSchemaTests {
  /// The table against a store a schema 3 build wrote (`Tests/Fixtures/weekly-lists-v3`):
  /// every kind and field that file has a table or column for is at most 3, every other one
  /// at least 4.
  @Test func theHistoryAgreesWithAStoreASchema3BuildWrote() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/weekly-lists-v3/a.sqlite")
    let copy = try TemporaryDirectory.make().appendingPathComponent("a.sqlite")
    try FileManager.default.copyItem(at: fixture, to: copy)
    let queue = try DatabaseQueue(path: copy.path)
    try queue.read { db in
      for kind in EntityKind.allCases {
        guard try db.tableExists(kind.rawValue) else {
          #expect(SchemaHistory.firstSchema(of: kind) >= 4, "\(kind.rawValue) has no table in a v3 file")
          continue
        }
        #expect(SchemaHistory.firstSchema(of: kind) <= 3, "\(kind.rawValue)")
        let columns = Set(try db.columns(in: kind.rawValue).map(\.name))
        for field in kind.schema.fields {
          let first = SchemaHistory.firstSchema(of: field.name, in: kind)
          #expect(columns.contains(field.name) ? first <= 3 : first >= 4, "\(kind.rawValue).\(field.name): first schema \(first)")
        }
      }
    }
  }

  /// Generated: a change of each kind carrying one field, in a batch of each schema, is
  /// refused exactly when the field or its kind came later, naming it.
  @Test func aRegisterIsRefusedExactlyWhenItsFieldCameAfterTheDeclaredSchema() {
    let rules = ChangeRules(now: Fixtures.epoch)
    let stamp = Stamp(time: Fixtures.epoch.millisecondsSince1970 - 1_000, counter: 0, replica: "r")
    for kind in EntityKind.allCases {
      for field in kind.schema.fields where !kind.schema.identityFields.contains(field.name) {
        guard let value = field.defaultValue ?? (field.isOptional ? FieldValue.null : nil) else { continue }
        let change = RecordChange(
          kind: kind, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
          fields: [field.name: StampedValue(value: value, stamp: stamp)])
        for schema in 2...ChangeBatchCoding.schemaVersion {
          let violation = rules.violation(in: change, of: ChangeBatch(id: "r:1-1", replica: "r", schemaVersion: schema, changes: [change]))
          let later = max(SchemaHistory.firstSchema(of: kind), SchemaHistory.firstSchema(of: field.name, in: kind)) > schema
          #expect((violation != nil) == later, "\(kind.rawValue).\(field.name) in schema \(schema): \(String(describing: violation))")
          if later { #expect(violation?.field == (SchemaHistory.firstSchema(of: kind) > schema ? "kind" : field.name)) }
        }
      }
    }
  }

  /// A batch declaring schema 4 that carries a store and a planned meal's servings: each is
  /// set aside on pull, the rest of the batch applies.
  @Test(arguments: TestBackend.allCases)
  func changesAnOldSchemaCouldNotHoldAreSetAsideOnPull(_ backend: TestBackend) throws {
    let house = try HostileBatchTests.Household(backend, devices: 1)
    let stamp = Stamp(time: HostileBatchTests.pastTime, counter: 0, replica: HostileBatchTests.evil)
    func register(_ value: FieldValue) -> StampedValue { StampedValue(value: value, stamp: stamp) }
    let store = RecordChange(
      kind: .groceryStore, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: [
        RecordChange.existsField: register(.bool(true)), "displayName": register(.text("Aldi")), "normalizedName": register(.text("aldi")),
      ])
    let fine = HostileBatchTests.category("Bakery", at: HostileBatchTests.pastTime)
    _ = try house.cloud.push(
      ChangeBatch(id: "\(HostileBatchTests.evil):1-1", replica: HostileBatchTests.evil, schemaVersion: 4, changes: [store, fine]))
    #expect(try house.engine(0).sync().setAside == 1)
    let aside = try #require(try house.engine(0).setAsideChanges().first)
    #expect(aside.field == "kind" && aside.reason.contains("arrived with schema 5"), "\(aside)")
    #expect(try house.categories(0) == ["Bakery"])
    #expect(try house.devices[0].library.stores.all().isEmpty)
  }

  /// A recipe line's ingredient group arrived with schema 6: a batch declaring 5 cannot
  /// carry it, one declaring 6 can.
  @Test func aGroupNeedsABatchOfSchemaSix() {
    let rules = ChangeRules(now: Fixtures.epoch)
    let stamp = Stamp(time: Fixtures.epoch.millisecondsSince1970 - 1_000, counter: 0, replica: "r")
    let change = RecordChange(
      kind: .recipeIngredient, id: UUID(), createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local",
      sharingScope: .private, fields: ["group": StampedValue(value: .text("For the sauce"), stamp: stamp)])
    let old = rules.violation(in: change, of: ChangeBatch(id: "r:1-1", replica: "r", schemaVersion: 5, changes: [change]))
    #expect(old?.field == "group" && old?.reason.contains("arrived with schema 6") == true, "\(String(describing: old))")
    #expect(rules.violation(in: change, of: ChangeBatch(id: "r:1-1", replica: "r", schemaVersion: 6, changes: [change])) == nil)
  }
}
