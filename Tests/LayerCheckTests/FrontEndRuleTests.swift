import LayerCheckCore
import Testing

@Suite("Front-end rule")
struct FrontEndRuleTests {
  @Test func reportsEveryConstructionAndStoreMutationAtItsLineAndColumn() throws {
    let report = try Fixtures.checkFrontEnd("Violations.swift")
    #expect(
      report.violations.map(\.position) == [
        "7:17", "8:15", "9:25", "10:33", "11:19", "12:13", "13:14", "14:16", "15:17", "16:24", "17:28",
        "18:13", "19:13", "20:13", "21:27", "21:52", "22:16", "24:11", "28:3", "32:17", "32:51", "36:14",
      ]
    )
    #expect(report.allowances.isEmpty)
  }

  @Test func messagesNameTheFileTheConstructAndTheRepositoryToUse() throws {
    let report = try Fixtures.checkFrontEnd("Violations.swift")
    let lines = Dictionary(report.violations.map { ($0.position, $0.description) }) { first, _ in first }
    let file = Fixtures.path("FrontEnd/Violations.swift")
    #expect(
      lines["7:17"]
        == "\(file):7:17: error: 'Category(…)' creates a Category outside a repository; "
        + "use CategoryRepository.getOrCreate"
    )
    #expect(lines["8:15"]?.contains("'Category.init(…)' creates a Category") == true)
    #expect(lines["9:25"]?.contains("'.init(…)' creates a Category") == true)
    #expect(lines["11:19"]?.contains("'Model.Category(…)' creates a Category") == true)
    #expect(
      lines["12:13"]?.hasSuffix(
        "'Tag(…)' creates a Tag outside a repository; "
          + "create it through the repository that owns it (there is no TagRepository)"
      ) == true
    )
    #expect(lines["14:16"]?.contains("'Record(…)' constructs a raw store record (Record) in a front end") == true)
    #expect(lines["15:17"]?.contains("'Shelf(…)' creates a Category") == true)
    #expect(lines["16:24"]?.contains("'Category.init' creates a Category") == true)
    #expect(lines["17:28"]?.contains("'Category(displayName:)' creates a Category") == true)
    #expect(
      lines["18:13"]?.hasSuffix(
        "error: 'insertRecord(…)' calls the Store's mutating API (StoreWriter.insertRecord) from a front end; "
          + "change entities through their repositories (e.g. CategoryRepository)"
      ) == true
    )
    #expect(
      lines["22:16"]?.hasSuffix(
        "'Recipe(…)' creates a Recipe outside a repository; use RecipeRepository.create"
      ) == true
    )
  }

  @Test func nearMissesPass() throws {
    let report = try Fixtures.checkFrontEnd("NearMisses.swift")
    #expect(report.violations.map(\.description) == [])
  }

  @Test func readsEntityTypesAndTheStoreWriterAPIFromTheModulesSources() throws {
    let vocabulary = try Fixtures.vocabulary()
    #expect(vocabulary.entityTypes == ["Category", "Tag", "Recipe", "Book"])
    #expect(vocabulary.recordTypes == ["Record", "RecordChange", "ChangeBatch", "StampedValue"])
    #expect(
      vocabulary.writerMethods == ["insertRecord", "updateRecord", "tombstoneRecord", "setMetadata", "insertRecords"]
    )
    #expect(vocabulary.fixHint(for: "Category") == "use CategoryRepository.getOrCreate")
    #expect(
      vocabulary.fixHint(for: "Book") == "create it through the repository that owns it (there is no BookRepository)"
    )
  }

  @Test func aNewKindInTheModelIsCoveredWithoutEditingTheChecker() {
    let vocabulary = Vocabulary.scan(
      model: [SourceFile(path: "Model/Pantry.swift", text: "public struct Pantry: Entity, Sendable {}")],
      persistence: [SourceFile(path: "Persistence/Store.swift", text: "protocol StoreWriter { func stockShelf() }")]
    )
    let front = SourceFile(
      path: "Scripting/Run.swift",
      text: """
        let pantry = Pantry()
        try store.stockShelf()
        """
    )
    let report = FrontEndCheck(vocabulary: vocabulary).run([front])
    #expect(
      report.violations.map(\.description) == [
        "Scripting/Run.swift:1:14: error: 'Pantry(…)' creates a Pantry outside a repository; "
          + "create it through PantryRepository",
        "Scripting/Run.swift:2:11: error: 'stockShelf(…)' calls the Store's mutating API (StoreWriter.stockShelf) "
          + "from a front end; change entities through their repositories (e.g. CategoryRepository)",
      ]
    )
  }

  @Test func initPassedAsAnArgumentIsTypedByTheDeclarationsInTheCheckedFiles() throws {
    let vocabulary = try Fixtures.vocabulary()
    let declarations = SourceFile(
      path: "Scripting/Helpers.swift",
      text: """
        func show(_ category: Category) {}
        func keep(_ count: Int, into shelf: Category?, all: [Category]) {}
        struct Aisle { init(holding category: Category, _ tag: Tag) {} }
        func pick(_ value: Int) {}
        func pick(_ value: Category) {}
        """
    )
    let calls = SourceFile(
      path: "Scripting/Run.swift",
      text: """
        show(.init(displayName: "A"))
        keep(.init(3), into: .init(displayName: "B"), all: [.init(displayName: "C")])
        _ = Aisle(holding: .init(displayName: "D"), .init(displayName: "E"))
        pick(.init(4))
        unknown(.init(displayName: "F"))
        self.show(try .init(displayName: "G"))
        """
    )
    let report = FrontEndCheck(vocabulary: vocabulary).run([declarations, calls])
    #expect(
      report.violations.map { "\($0.position) \($0.message)".prefix(40) } == [
        "1:6 '.init(…)' creates a Category outsid", "2:22 '.init(…)' creates a Category outsi",
        "2:53 '.init(…)' creates a Category outsi", "3:20 '.init(…)' creates a Category outsi",
        "3:45 '.init(…)' creates a Tag outside a ", "6:15 '.init(…)' creates a Category outsi",
      ]
    )
  }

  @Test func refusesToRunWhenTheModelHasNoEntityTypes() {
    #expect(throws: LayerCheckError.noEntityTypes(Fixtures.path("Repositories"))) {
      try Runner.vocabulary(model: [Fixtures.path("Repositories")], persistence: [Fixtures.path("Persistence")])
    }
    #expect(throws: LayerCheckError.noStoreWriter(Fixtures.path("Model"))) {
      try Runner.vocabulary(model: [Fixtures.path("Model")], persistence: [Fixtures.path("Model")])
    }
  }
}
