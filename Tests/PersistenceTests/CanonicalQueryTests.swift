import Foundation
import Model
import Persistence
import TestSupport
import Testing

/// A store holds texts in NFC whatever form they were written in, and a query's texts are
/// put into NFC too: a record written decomposed is found by a query typed composed and the
/// other way round, by every filter that compares text, on both backends alike.
@Suite("Canonical text in queries")
struct CanonicalQueryTests {
  static let composed = "cr\u{E8}me fra\u{EE}che"
  static let decomposed = "cre\u{300}me frai\u{302}che"

  @Test(arguments: TestBackend.allCases, [CanonicalQueryTests.composed, CanonicalQueryTests.decomposed])
  func everyTextFilterFindsARecordWhicheverFormEachSideUsed(_ backend: TestBackend, written: String) throws {
    let store = try backend.makeStore()
    let template = Fixtures.template(written, aliases: ["double " + written])
    try store.write { try $0.insertRecord(template) }
    let stored = try #require(try store.read { try $0.record(.ingredientTemplate, id: template.id) })
    #expect(Array((stored["displayName"].text ?? "").utf8) == Array(Self.composed.utf8))
    for typed in [Self.composed, Self.decomposed] {
      let filters: [RecordFilter] = [
        .equals("displayName", .text(typed)), .hasElement("aliases", "double " + typed), .contains("displayName", typed),
        .hasPrefix("displayName", typed), .anyOf([.equals("displayName", .text(typed))]),
      ]
      for filter in filters {
        let query = RecordQuery(.ingredientTemplate, filters: [filter], sort: [])
        #expect(try store.read { try $0.fetch(query) }.map(\.id) == [template.id], "\(filter)")
        #expect(try store.read { try $0.count(query) } == 1, "\(filter)")
      }
    }
  }
}
