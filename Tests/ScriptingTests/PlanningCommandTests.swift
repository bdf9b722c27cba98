import CommandLanguage
import Model
import Scripting
import Testing

@Suite struct MealCommandTests {
  @Test func planningASlotAgainReplacesItsRecipe() throws {
    let harness = try Harness()
    try harness.run("seed sample")
    try harness.run("meal plan 2024-12-13 dinner Egg Fried Rice --notes \"double batch\"")
    #expect(
      try harness.text("meal plan 2024-12-13 Dinner \"Caesar Salad\"").hasPrefix(
        "planned 'Caesar Salad' for 2024-12-13 dinner (replacing 'Egg Fried Rice')"))
    #expect(try harness.count(.plannedMeal) == 1)
    let meal = try #require(try harness.json("meal show 2024-12-13 dinner")["meal"])
    #expect(meal.string("recipe") == "Caesar Salad")
    #expect(meal.string("slot") == "2024-12-13-dinner")
  }

  @Test func planningAnUnknownRecipeChangesNothing() throws {
    try Harness().expectFailure("meal plan 2024-12-13 lunch Nothing", .failed, mentions: ["meal plan", "no recipe named 'Nothing'"])
  }

  @Test func theWeekViewStartsOnMondayAndShowsEveryDay() throws {
    let harness = try Harness()
    try harness.run("recipe add Soup\nmeal plan 2024-12-30 lunch Soup\nmeal plan 2025-01-05 dinner Soup")
    let json = try harness.json("meal week 2024-12-31")
    #expect(json.string("week") == "2025-W01")
    let days = json.rows("days")
    #expect(days.count == 7)
    #expect(days.first?.string("day") == "Mon")
    #expect(days.first?.string("recipe") == "Soup")
    #expect(days.last?.string("date") == "2025-01-05")
    #expect(try harness.json("meal week").string("week") == "2024-W50")
  }

  @Test func clearRemovesAMealAndFailsOnAnEmptySlot() throws {
    let harness = try Harness()
    try harness.run("recipe add Soup\nmeal plan 2024-12-13 snack Soup\nmeal clear 2024-12-13 snack")
    #expect(try harness.count(.plannedMeal) == 0)
    try harness.expectFailure("meal clear 2024-12-13 snack", .failed, mentions: ["meal clear", "no planned meal"])
    #expect(try harness.text("meal show 2024-12-13 snack") == "nothing planned for 2024-12-13 snack")
  }

  @Test func mealPlansAreNamedAndMayRepeat() throws {
    let harness = try Harness()
    try harness.run("mealplan add Holidays --week 2024-12-25\nmealplan add Holidays")
    let plans = try harness.json("mealplan list").rows("mealPlans")
    #expect(plans.count == 2)
    #expect(plans.contains { $0.string("week") == "2024-W52" })
  }
}

@Suite struct ListCommandTests {
  func harnessWithList() throws -> Harness {
    let harness = try Harness()
    try harness.run(
      """
      recipe add Pancakes --ingredient "2 cups milk" --ingredient "2 eggs"
      recipe add Custard --ingredient "1 cup milk"
      list new Groceries --week 2024-W50
      list add-recipe Pancakes to Groceries
      list add-recipe Custard to Groceries
      list add Milk --quantity "1 l" to Groceries
      list add dish soap to Groceries
      """)
    return harness
  }

  @Test func showSumsTheAmountsOfOneIngredientOnOneLine() throws {
    let harness = try harnessWithList()
    // 3 US cups + 1 l of milk, shown in cups (the first amount's system) or in litres.
    #expect(
      try harness.text("list show Groceries") == """
        Groceries (2024-W50)
        AISLE          ITEM       AMOUNT    DONE
        Uncategorized  milk       7 ¼ cups  no
                       egg        2         no
                       dish soap            no
        """)
    #expect(try harness.text("list show Groceries --units metric").contains("milk       1.71 l"))
    let milk = try #require(try harness.json("list show Groceries").rows("items").first)
    // The exact sum in cups: (3 × 236.5882365 + 1000) ÷ 236.5882365.
    #expect(
      milk["amounts"] == [
        [
          "exact": "3419529419/473176473", "exactUpperBound": .null, "value": .double(3_419_529_419.0 / 473_176_473.0), "unit": "cup",
          "packageSize": .null, "text": "7 ¼ cups",
        ]
      ])
    #expect(milk["itemCount"] == 3)
    #expect(try harness.json("list items Groceries").rows("items").count == 5)
  }

  @Test func checkingAnItemChecksEveryLineForIt() throws {
    let harness = try harnessWithList()
    try harness.run("list check milk on Groceries")
    // A done line is hidden, then shown last with --all.
    #expect(try harness.json("list show Groceries").rows("items").map { $0.string("name") } == ["egg", "dish soap"])
    let milk = try harness.json("list show Groceries --all").rows("items").last
    #expect(milk?.string("name") == "milk")
    #expect(milk?["completed"] == .bool(true))
    try harness.run("list uncheck Milk on Groceries")
    #expect(try harness.json("list show Groceries").rows("items").first?["completed"] == .bool(false))
    try harness.expectFailure("list check caviar on Groceries", .failed, mentions: ["list check", "no list item named 'caviar'"])
  }

  @Test func removeCompleteReopenRenameAndDelete() throws {
    let harness = try harnessWithList()
    try harness.run("list remove milk from Groceries")
    #expect(try harness.count(.groceryListItem) == 2)
    try harness.run("list complete Groceries")
    #expect(try harness.json("list all").rows("lists").first?["completed"] == .bool(true))
    try harness.run("list reopen Groceries")
    try harness.run("list rename Groceries to Big Shop")
    #expect(try harness.json("list all --week 2024-12-12").rows("lists").first?.string("name") == "Big Shop")
    try harness.run("list delete Big Shop")
    #expect(try harness.count(.weeklyList) == 0)
    #expect(try harness.count(.groceryListItem) == 0)
  }

  @Test func listsMayShareANameAndThenNeedAnID() throws {
    let harness = try Harness()
    try harness.run("list new Groceries --week 2024-W50\nlist new Groceries --week 2024-W51")
    try harness.expectFailure("list show Groceries", .failed, mentions: ["list show", "2 weekly lists are named 'Groceries'"])
    try harness.expectFailure("list add milk to Nowhere", .failed, mentions: ["no weekly list named 'Nowhere'"])
    try harness.expectFailure("list add milk Groceries", .usage, mentions: ["missing 'to'"])
    #expect(try harness.json("list new Weekly").rows("lists").first?.string("week") == "2024-W50")
  }
}
