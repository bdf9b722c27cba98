import LayerCheckCore
import Testing

/// Ways around the front-end rule that a syntactic check could miss: an entity made
/// through `Category.self`, a generic parameter or an existential metatype, a Store writer
/// method taken unapplied through an implicit `self`, and a batch decoded from bytes and
/// pushed to the household's log.
@Suite("Front-end rule: indirect constructions and pushes")
struct HoleRuleTests {
  @Test func everyIndirectConstructionWriteAndPushIsReported() throws {
    let report = try Fixtures.checkFrontEnd("Holes.swift")
    let found = Dictionary(report.violations.map { ($0.position, $0.description) }) { first, _ in first }
    #expect(report.violations.map(\.position) == ["6:7", "10:7", "14:7", "18:7", "22:44", "27:15", "29:18", "35:40", "36:17"])
    #expect(found["6:7"]?.contains("'Category.self.init(…)' creates a Category outside a repository") == true)
    #expect(found["10:7"]?.contains("'E(…)' creates an entity (E: Entity) outside a repository") == true)
    #expect(found["14:7"]?.contains("'type.init(…)' creates an entity (E: UniqueEntity)") == true)
    #expect(found["18:7"]?.contains("'kind.init(…)' creates an entity (any Entity.Type: Entity)") == true)
    #expect(found["22:44"]?.contains("'E.init(…)' creates an entity (E: Entity)") == true)
    #expect(found["27:15"]?.contains("'updateRecord(…)' calls the Store's mutating API") == true)
    #expect(found["29:18"]?.contains("'insertRecord(…)' calls the Store's mutating API") == true)
    #expect(found["35:40"]?.contains("'ChangeBatch.self' builds a sync change (ChangeBatch) in a front end") == true)
    #expect(found["36:17"]?.contains("'push(…)' appends a batch to the household's log (CloudStore.push)") == true)
  }

  /// Generic code that constructs nothing passes: a parameter constrained to a protocol
  /// that is not an entity's, and an entity's metatype handed to a repository.
  @Test func genericCodeThatConstructsNoEntityPasses() {
    let front = SourceFile(
      path: "Scripting/Generic.swift",
      text: """
        func describe<T: CustomStringConvertible>(_ value: T) -> String { String(describing: T.self) + value.description }
        func build<T: ExpressibleByIntegerLiteral>() -> T { T(integerLiteral: 1) }
        func names<E: Entity>(_ kind: E.Type, in library: Library) throws -> [String] { try library.names(of: kind) }
        """)
    let vocabulary = Vocabulary(entityTypes: ["Category"], writerMethods: ["insertRecord"])
    #expect(FrontEndCheck(vocabulary: vocabulary).run([front]).violations.map(\.description) == [])
  }
}
