import Foundation
import Model
import Observation
import Repositories
import Synchronization
import TestSupport
import Testing

/// The `@Observable` models update on the main actor from their observed queries.
@Suite("Live models", .timeLimit(.minutes(1)))
@MainActor
struct LiveModelTests {
  /// Waits (on the main actor) until `condition` holds.
  private func eventually(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      guard ContinuousClock.now < deadline else { break }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  @Test(arguments: TestBackend.allCases)
  func aWeeklyListModelFollowsWritesAndTellsObservationTracking(_ backend: TestBackend) async throws {
    let library = try makeLibrary(backend)
    _ = try library.categories.getOrCreate("Dairy")
    _ = try library.ingredients.getOrCreate("milk", category: "Dairy")
    _ = try library.lists.create("Week", week: "2026-W47")
    let model = WeeklyListModel(library: library, list: "Week")
    try await eventually { model.value != nil }
    #expect(model.value?.aisles.isEmpty == true)

    let changed = ChangeFlag()
    withObservationTracking {
      _ = model.value
    } onChange: {
      changed.set()
    }
    _ = try library.lists.addItem("1 l milk", to: "Week")
    try await eventually { model.value?.aisles.count == 1 }
    #expect(model.value?.aisles.first?.lines.map(\.name) == ["milk"])
    #expect(changed.isSet)
    #expect(model.error == nil)

    model.stop()
    let updates = model.updates
    _ = try library.lists.addItem("eggs", to: "Week")
    try await Task.sleep(for: .milliseconds(50))
    #expect(model.updates == updates)
  }

  @Test(arguments: TestBackend.allCases)
  func aModelKeepsTheErrorThatEndedItsQuery(_ backend: TestBackend) async throws {
    let library = try makeLibrary(backend)
    let model = MealPlanModel(library: library, week: "not a week")
    try await eventually { model.error != nil }
    #expect(model.error as? RepositoryError == .invalidWeek("not a week"))
    #expect(model.value == nil)
  }
}

/// A flag set from `withObservationTracking`'s onChange, which may run on any thread.
final class ChangeFlag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}
