import Foundation
import Model
import Testing

/// A record keeps its values by schema position; reading and writing by name, the
/// dictionary of fields and equality must not depend on how it was built.
@Suite struct RecordTests {
  let meta = RecordMetadata(
    id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, createdAt: Date(timeIntervalSinceReferenceDate: 1))

  @Test func aRecordBuiltByNameEqualsOneBuiltByPosition() {
    let byName = Record(
      kind: .category, meta: meta, fields: ["displayName": .text("Produce"), "normalizedName": .text("produce"), "sortOrder": .null])
    var values = [FieldValue](repeating: .null, count: Category.schema.fields.count)
    values[Category.schema.position(of: "normalizedName")!] = .text("produce")
    values[Category.schema.position(of: "displayName")!] = .text("Produce")
    let byPosition = Record(kind: .category, meta: meta, values: values)
    #expect(byName == byPosition)
    #expect(byName.hashValue == byPosition.hashValue)
    #expect(byName.fields == ["displayName": .text("Produce"), "normalizedName": .text("produce")])
    #expect(byName.fieldNames == ["displayName", "normalizedName"])
    #expect(byName["sortOrder"] == .null)
    #expect(byName[position: Category.schema.position(of: "displayName")!] == .text("Produce"))
  }

  @Test func aNameOutsideTheSchemaIsKeptAndReported() {
    var record = Record(kind: .category, meta: meta, fields: ["displayName": .text("Produce"), "colour": .text("green")])
    #expect(record["colour"] == .text("green"))
    #expect(record.unknownFields == ["colour"])
    #expect(record.fieldNames == ["colour", "displayName"])
    #expect(record.fields["colour"] == .text("green"))
    record["colour"] = .null
    #expect(record.unknownFields.isEmpty)
    #expect(record == Record(kind: .category, meta: meta, fields: ["displayName": .text("Produce")]))
  }

  @Test func changedFieldsNamesEveryDifferenceSorted() {
    let before = Record(
      kind: .ingredientTemplate, meta: meta,
      fields: ["displayName": .text("Egg"), "canonicalName": .text("egg"), "isStaple": .bool(false), "zz": .integer(1)])
    var after = before
    after["isStaple"] = .bool(true)
    after["displayName"] = .null
    after["aliases"] = .textList(["hen egg"])
    after["zz"] = .null
    after["aa"] = .integer(2)
    #expect(after.changedFields(comparedTo: before) == ["aa", "aliases", "displayName", "isStaple", "zz"])
    #expect(before.changedFields(comparedTo: after) == ["aa", "aliases", "displayName", "isStaple", "zz"])
    #expect(before.changedFields(comparedTo: before).isEmpty)
  }
}
