public import Model
public import Observation
public import Persistence

/// An observed query's latest value as an `@Observable` object on the main actor: what a
/// SwiftUI view (or any code that tracks observation) binds to. Its properties change on
/// the main actor whenever the store commits a change the query reads; the query itself
/// runs off the main actor, in the observation's own read transactions.
///
/// ```swift
/// let model = WeeklyListModel(library: library, list: "Groceries")
/// // in a view: ForEach(model.value?.aisles ?? []) { … }
/// ```
///
/// The model observes until ``stop()`` or until it is released. A query error (the list
/// was deleted) ends the observation and is kept in ``error``.
@MainActor @Observable
public final class LiveModel<Value: Sendable> {
  /// The query's latest value; nil until the first one is read.
  public private(set) var value: Value?
  /// The error that ended the observation, if one did.
  public private(set) var error: (any Error)?
  /// How many values the model has received.
  public private(set) var updates = 0

  @ObservationIgnored private var task: Task<Void, Never>?

  /// Starts observing: the first value arrives shortly after.
  public init(_ observation: StoreObservation<Value>) {
    task = Task { [weak self] in
      do {
        for try await value in observation {
          guard let self else { return }
          self.value = value
          self.updates += 1
        }
      } catch {
        self?.error = error
      }
    }
  }

  /// Stops observing; the last value stays.
  public func stop() {
    task?.cancel()
    task = nil
  }

  isolated deinit {
    task?.cancel()
  }
}

/// A weekly list by aisle (``LiveQueries/shoppingList(_:units:includeDone:store:)``).
public typealias WeeklyListModel = LiveModel<ShoppingList>
/// The planned meals of a week (``LiveQueries/week(_:)``).
public typealias MealPlanModel = LiveModel<PlannedMealRepository.Week>
/// A recipe with its lines (``LiveQueries/recipe(_:)``).
public typealias RecipeModel = LiveModel<RecipeDetails>
/// The ingredients on hand (``LiveQueries/pantry()``).
public typealias PantryModel = LiveModel<[IngredientTemplate]>

extension LiveModel where Value == ShoppingList {
  /// A model of a weekly list by aisle, as `list show` shows it.
  public convenience init(
    library: Library, list listNameOrID: String, units: UnitPreference? = nil, includeDone: Bool = false, store: String? = nil
  ) {
    self.init(library.live.shoppingList(listNameOrID, units: units, includeDone: includeDone, store: store))
  }
}

extension LiveModel where Value == PlannedMealRepository.Week {
  /// A model of the planned meals of an ISO week ("2026-W47" or a date in it).
  public convenience init(library: Library, week weekOrDate: String) {
    self.init(library.live.week(weekOrDate))
  }
}

extension LiveModel where Value == RecipeDetails {
  /// A model of a recipe with its lines.
  public convenience init(library: Library, recipe nameOrID: String) {
    self.init(library.live.recipe(nameOrID))
  }
}

extension LiveModel where Value == [IngredientTemplate] {
  /// A model of the pantry.
  public convenience init(pantryOf library: Library) {
    self.init(library.live.pantry())
  }
}
