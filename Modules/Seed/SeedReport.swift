public import Model
import Repositories

/// What a seed did: for each kind it seeds, how many records it created and how many it
/// found already present.
///
/// ```swift
/// let report = try Seed.defaults(into: library)
/// print(report)  // "seeded 7 categories (0 new)"
/// ```
public struct SeedReport: Sendable, Hashable, CustomStringConvertible {
  /// The outcome for one kind.
  public struct Tally: Sendable, Hashable {
    /// Records this seed created.
    public internal(set) var created: Int
    /// Records the seed wanted that were already there (seeded before, on this or
    /// another device, or created by the user), left as they were.
    public internal(set) var alreadyPresent: Int

    public init(created: Int = 0, alreadyPresent: Int = 0) {
      self.created = created
      self.alreadyPresent = alreadyPresent
    }

    /// Every record of the kind the seed asked for.
    public var total: Int { created + alreadyPresent }
  }

  /// The kinds a seed can report on, in the order they are seeded and described.
  public static let kinds: [EntityKind] = [.category, .book, .ingredientTemplate, .tag, .recipe]

  /// Tallies by kind; a kind the seed did not touch is absent.
  public private(set) var tallies: [EntityKind: Tally] = [:]

  /// Aliases the sample wanted to add but left out because they already name another
  /// ingredient (the user's data wins), as "alias → the ingredient holding it".
  public internal(set) var skippedAliases: [String] = []

  public init() {}

  /// The tally for a kind (zero when the seed did not touch it).
  public subscript(kind: EntityKind) -> Tally { tallies[kind] ?? Tally() }

  /// How many records the seed created, over all kinds.
  public var createdCount: Int { tallies.values.reduce(0) { $0 + $1.created } }

  mutating func record(_ kind: EntityKind, created: Bool) {
    var tally = self[kind]
    if created { tally.created += 1 } else { tally.alreadyPresent += 1 }
    tallies[kind] = tally
  }

  /// "seeded 7 categories (0 new), 3 books (3 new), …", kinds in seeding order.
  public var description: String {
    let parts = Self.kinds.compactMap { kind in
      tallies[kind].map { "\($0.total) \(Self.noun(kind, count: $0.total)) (\($0.created) new)" }
    }
    var text = parts.isEmpty ? "seeded nothing" : "seeded " + parts.joined(separator: ", ")
    if !skippedAliases.isEmpty {
      text += "; aliases left out: " + skippedAliases.joined(separator: ", ")
    }
    return text
  }

  private static func noun(_ kind: EntityKind, count: Int) -> String {
    switch (kind, count == 1) {
    case (.category, true): "category"
    case (.category, false): "categories"
    case (_, true): kind.label
    case (_, false): kind.label + "s"
    }
  }
}
