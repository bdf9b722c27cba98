import Foundation
import Model
import Persistence
import Repositories
import TestSupport
import Testing

@testable import Sync

/// What a change or a batch may cost is bounded where the cost is spent — its values
/// expanded — not as it travels: the batch format writes each string once, so a list of
/// references to one paragraph is small on the wire and large everywhere after.
///
/// Property: a change the rules accept holds at most `RecordBudget.maximumRecordBytes` of
/// values once expanded, and a batch at most `RecordBudget.maximumBatchBytes`, however the
/// wire shared its strings; the same change is accepted or refused whatever the sharing.
@Suite("Bounds where the cost is spent")
struct CostBoundTests {
  static let tablet = "tablet-replica"
  static let time = HostileBatchTests.pastTime

  static func recipe(instructions: [String], id: UUID = UUID(), extra: [String: StampedValue] = [:]) -> RecordChange {
    let stamp = Stamp(time: time, counter: 0, replica: tablet)
    var fields: [String: StampedValue] = [
      RecordChange.existsField: StampedValue(value: .bool(true), stamp: stamp),
      "displayName": StampedValue(value: .text("Soup"), stamp: stamp),
      "titleKey": StampedValue(value: .text("soup"), stamp: stamp),
      "recipeInstructions": StampedValue(value: .textList(instructions), stamp: stamp),
    ]
    fields.merge(extra) { $1 }
    return RecordChange(
      kind: .recipe, id: id, createdAt: Fixtures.epoch, updatedAt: Fixtures.epoch, ownerID: "local", sharingScope: .private,
      fields: fields)
  }

  /// 2,000 references to one 1,200-character paragraph: every item keeps its rule, the
  /// batch is a few kilobytes on the wire, and the change is 2.4 MB once expanded.
  @Test(arguments: TestBackend.allCases)
  func aListOfReferencesToOneParagraphIsSetAsideByItsExpandedSize(_ backend: TestBackend) throws {
    let paragraph = String(repeating: "Stir. ", count: 200)
    let flood = Self.recipe(instructions: Array(repeating: paragraph, count: 2_000))
    let honest = Self.recipe(instructions: ["Simmer for an hour."])
    let batch = ChangeBatch(id: "\(Self.tablet):1-2", replica: Self.tablet, schemaVersion: 3, changes: [flood, honest])
    #expect(ChangeBatchCoding.encode(batch).count < 50_000, "the wire shares the paragraph")

    let house = try HostileBatchTests.Household(backend, devices: 1)
    _ = try house.cloud.push(batch)
    let report = try house.engine(0).sync()
    #expect(report.setAside == 1)
    let aside = try #require(try house.engine(0).setAsideChanges().first)
    #expect(aside.index == 0 && aside.field == "recipeInstructions" && aside.reason.contains("once expanded"), "\(aside)")
    #expect(try house.devices[0].library.recipes.all().map(\.recipeInstructions) == [["Simmer for an hour."]])
  }

  /// Batches made of changes each within the record budget but together past the batch's
  /// are set aside whole, as the server refuses them.
  @Test func aBatchPastItsExpandedBudgetIsSetAsideWhole() throws {
    let paragraph = String(repeating: "Whisk. ", count: 1_400)
    let changes = (0..<20).map { _ in Self.recipe(instructions: Array(repeating: paragraph, count: 100)) }
    let batch = ChangeBatch(id: "\(Self.tablet):1-20", replica: Self.tablet, schemaVersion: 3, changes: changes)
    #expect(changes.allSatisfy { ChangeRules(now: Fixtures.epoch).violation(in: $0, of: batch) == nil })
    let problem = try #require(ChangeRules.sizeProblem(batch))
    #expect(problem.contains("once expanded"))

    let house = try HostileBatchTests.Household(.memory, devices: 1)
    _ = try house.cloud.push(batch)
    #expect(try house.engine(0).sync().setAside == 1)
    #expect(try house.engine(0).setAsideChanges().first?.code == "batch-invalid")
    #expect(try house.devices[0].library.recipes.all().isEmpty)
  }

  @Test func mergeEdgesAreBoundedPerChangeAndPerBatch() throws {
    let stamp = Stamp(time: Self.time, counter: 0, replica: Self.tablet)
    func edges(_ count: Int) -> [String: StampedValue] {
      Dictionary(
        uniqueKeysWithValues: (0..<count).map { _ in
          let keeper = UUID()
          return (RecordChange.mergeFieldPrefix + keeper.uuidString.lowercased(), StampedValue(value: .reference(keeper), stamp: stamp))
        })
    }
    let rules = ChangeRules(now: Fixtures.epoch)
    let batch = ChangeBatch(id: "\(Self.tablet):1-1", replica: Self.tablet, schemaVersion: 3, changes: [])
    let allowed = Self.recipe(instructions: [], extra: edges(RecordBudget.maximumMergeEdgesPerChange))
    #expect(rules.violation(in: allowed, of: batch) == nil)
    let star = Self.recipe(instructions: [], extra: edges(RecordBudget.maximumMergeEdgesPerChange + 1))
    #expect(rules.violation(in: star, of: batch)?.reason.contains("merge edges") == true)

    let many = (0..<(RecordBudget.maximumMergeEdgesPerBatch / 10 + 1)).map { _ in Self.recipe(instructions: [], extra: edges(10)) }
    let wide = ChangeBatch(id: "\(Self.tablet):1-101", replica: Self.tablet, schemaVersion: 3, changes: many)
    #expect(ChangeRules.sizeProblem(wide)?.contains("merge edges") == true)
  }

  /// Generated inputs: random lists drawn from a small pool of strings (so the wire shares
  /// many of them), sent through the batch format. A change is refused exactly when its
  /// values, expanded as fresh copies, pass the record budget, and the sharing changes
  /// nothing.
  @Test func theBudgetCountsExpandedBytesWhateverTheWireShares() throws {
    var generator = SeededGenerator(seed: 48)
    let rules = ChangeRules(now: Fixtures.epoch)
    for round in 0..<60 {
      let pool = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
        String(
          repeating: ["a", "é", "🍅", "字"].randomElement(using: &generator) ?? "a", count: Int.random(in: 1...9_000, using: &generator))
      }
      let items = (0..<Int.random(in: 0...400, using: &generator)).map { _ in pool.randomElement(using: &generator) ?? "" }
      let change = Self.recipe(instructions: items)
      let batch = ChangeBatch(id: "\(Self.tablet):1-1", replica: Self.tablet, schemaVersion: 3, changes: [change])
      let decoded = try #require(try ChangeBatchCoding.decode(ChangeBatchCoding.encode(batch)).changes.first)
      let expanded = change.fields.reduce(0) { total, entry in
        let value: Int =
          switch entry.value.value {
          case .text(let text): Data(text.utf8).count
          case .textList(let texts): texts.map { Data($0.utf8).count }.reduce(0, +)
          case .bool: 8
          default: 0
          }
        return total + Data(entry.key.utf8).count + value
      }
      let refused = rules.violation(in: decoded, of: batch)?.reason.contains("once expanded") == true
      #expect(refused == (expanded > RecordBudget.maximumRecordBytes), "round \(round): \(expanded) bytes")
      #expect(refused == (rules.violation(in: change, of: batch)?.reason.contains("once expanded") == true), "round \(round)")
    }
  }

  /// A store holds every record to the same budget, so no device writes a record the
  /// others would refuse: the write fails, naming the field, and changes nothing.
  @Test(arguments: TestBackend.allCases)
  func aStoreRefusesARecordPastTheBudget(_ backend: TestBackend) throws {
    let store = try backend.makeStore(clock: TickingClock().now)
    let library = Library(store: store, now: TickingClock().now, ids: .seeded(3))
    let paragraph = String(repeating: "Fold gently. ", count: 700)
    #expect {
      _ = try library.recipes.create(RecipeDraft(name: "Huge", instructions: Array(repeating: paragraph, count: 200)))
    } throws: { error in
      "\(error)".contains("recipeInstructions") && "\(error)".contains("once expanded")
    }
    #expect(try library.recipes.all().isEmpty)
  }
}
