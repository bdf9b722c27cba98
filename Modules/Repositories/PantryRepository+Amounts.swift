import Foundation
public import Model
import Normalization
import Persistence

extension PantryRepository {
  /// Sets how much of an ingredient is on hand ("500 g", "6", "2 cups"), putting it in the
  /// pantry and creating its template when missing. A list built from recipes then shows
  /// what they need beyond it.
  /// - Throws: ``RepositoryError/invalidValue(field:value:reason:)`` for an amount that is
  ///   not a number with an optional unit ("a handful", "-2 cups"), or not above 0 and at
  ///   most 100,000; nothing is written then.
  public func set(_ name: String, amount: String) throws -> IngredientTemplate {
    let text = amount.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    if let (position, scalar) = ValueRules.firstForbidden(in: text, allowingLineBreaks: false) {
      throw RepositoryError.invalidValue(
        field: "amount",
        value: String(text.prefix(40)).unicodeScalars.map { ValueRules.isForbidden($0, allowingLineBreaks: false) ? "�" : String($0) }
          .joined(), reason: "holds \(ValueRules.describe(scalar)) at character \(position)")
    }
    if let problem = Amounts.numberProblem(inAmount: text) ?? Amounts.problem(inQuantity: text) {
      throw RepositoryError.invalidValue(field: "amount", value: amount, reason: problem)
    }
    guard let parsed = ExactAmount.parse(text), parsed.upperBound == nil else {
      throw RepositoryError.invalidValue(
        field: "amount", value: amount, reason: "give a number and an optional unit, e.g. 500 g, 6, 2 cups, 1 ½ lb")
    }
    guard parsed.quantity > .zero, parsed.quantity.doubleValue <= Amounts.maximum else {
      throw RepositoryError.invalidValue(field: "amount", value: amount, reason: Amounts.outOfRange)
    }
    return try context.write { writer in
      var template = try IngredientTemplateRepository(context: context.bound(to: writer)).getOrCreate(name, in: writer)
      guard !template.onHand || template.onHandAmount != text else { return template }
      template.onHand = true
      template.onHandAmount = text
      try writer.save(template, at: context.now())
      return template
    }
  }

  /// What cooking a recipe takes out of the pantry, per ingredient with an amount on hand.
  public struct Use: Sendable, Hashable {
    /// The ingredient's name.
    public let ingredient: String
    /// The amount on hand before.
    public let before: String
    /// What the recipe takes ("300 g", "3 cups").
    public let taken: String
    /// The amount left; nil when it is used up (the ingredient leaves the pantry).
    public let after: String?
    /// The recipe's amount could not be compared with the one on hand: nothing is taken.
    public let isComparable: Bool
  }

  /// Takes a recipe's amounts out of the pantry: each line whose ingredient has an amount
  /// on hand lowers it where the two compare (any units of one dimension, a density, a
  /// count); an ingredient used up leaves the pantry. Ingredients on hand without an
  /// amount stay as they are.
  /// - Parameters:
  ///   - nameOrID: the recipe's title or id.
  ///   - scale: servings or a factor, as `list add-recipe` takes them.
  ///   - write: false reports what would be written and writes nothing.
  /// - Throws: ``RepositoryError`` for an unknown recipe or a scale out of range.
  public func use(recipe nameOrID: String, scaledBy scale: RecipeScale? = nil, write: Bool) throws -> [Use] {
    // A preview reads only; a write reads the recipe and the pantry in its own transaction.
    guard write else { return try Self.plan(RecipeRepository(context: context).details(nameOrID), scaledBy: scale).uses }
    return try context.write { writer in
      let details = try RecipeRepository(context: context.bound(to: writer)).details(nameOrID)
      let (uses, changed) = try Self.plan(details, scaledBy: scale)
      for template in changed { try writer.save(template, at: context.now()) }
      return uses
    }
  }

  /// What cooking takes out of the pantry, and the templates as they are after it (by id):
  /// the pure part of ``use(recipe:scaledBy:write:)``.
  private static func plan(_ details: RecipeDetails, scaledBy scale: RecipeScale?) throws -> (uses: [Use], changed: [IngredientTemplate]) {
    var details = details
    if let scale { details = details.scaled(by: try scale.factor(recipe: details.recipe)) }
    var changed: [UUID: IngredientTemplate] = [:]
    var uses: [Use] = []
    for line in details.lines {
      // The line's amount as a list holds it, package size included ("2 (400 g) cans"),
      // so cooking and `list show` compare the same two amounts.
      guard let id = line.template?.id, var template = changed[id] ?? line.template, template.onHand,
        let before = template.onHandAmount, let have = ExactAmount.parse(before),
        let text = WeeklyListRepository.amountText(
          line.ingredient.quantity, unit: line.ingredient.unit, packageSize: IngredientLine.parse(line.ingredient.rawLine).packageSize),
        let needed = ExactAmount.parse(text)
      else { continue }
      let taken = AmountTotal.sum([needed]).text(in: nil)
      let density =
        template.gramsPerCup.flatMap { Rational(approximating: $0) } ?? StapleDensity.gramsPerCup(canonicalName: template.canonicalName)
      let left = AmountTotal.sum([have]).subtracting(onHand: needed, gramsPerCup: density)
      guard left.isComparable else {
        uses.append(Use(ingredient: template.displayName, before: before, taken: taken, after: before, isComparable: false))
        continue
      }
      let after = left.remaining.parts.isEmpty ? nil : left.remaining.text(in: nil)
      uses.append(Use(ingredient: template.displayName, before: before, taken: taken, after: after, isComparable: true))
      template.onHandAmount = after
      template.onHand = after != nil
      changed[id] = template
    }
    return (uses, changed.values.sorted { $0.id.uuidString < $1.id.uuidString })
  }
}
