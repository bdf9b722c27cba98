import CommandLanguage
import Model
import Scripting
import Testing

@Suite struct RecipeCommandTests {
  let lasagna = """
    recipe add "Mom's Lasagna" --cuisine Italian --prep 30m --cook 1h --tag family --book "Family Book" --page 12:
      12 lasagna noodles
      2 ½ cups diced tomatoes (about 3)
    steps:
      Layer.
      Bake.
    end
    """

  @Test func addCreatesTheRecipeWithItsLinesTagsBookAndTimes() throws {
    let harness = try Harness()
    #expect(try harness.text(lasagna).hasPrefix("created recipe 'Mom's Lasagna' with 2 ingredient lines"))
    let json = try harness.json("recipe show moms lasagna")
    let recipe = try #require(json["recipe"])
    #expect(recipe.string("cuisine") == "Italian")
    #expect(recipe.string("prepTime") == "PT30M")
    #expect(recipe.string("totalTime") == "PT1H30M")
    #expect(recipe.string("source") == "Family Book p.12")
    #expect(recipe["tags"] == .array(["family"]))
    #expect(recipe["steps"] == .array(["1. Layer.", "2. Bake."]))
    let lines = json.rows("ingredients")
    #expect(lines.count == 2)
    #expect(lines[1]["quantity"] == .double(2.5))
    #expect(lines[1].string("unit") == "cup")
    #expect(lines[1].string("ingredient") == "tomato")
    #expect(lines[1].string("notes") == "diced; about 3")
  }

  @Test func repeatedIngredientOptionsWorkLikeABlock() throws {
    let harness = try Harness()
    try harness.run(#"recipe add "Egg Fried Rice" --cuisine Asian --ingredient "3 cups cooked rice" --ingredient "2 eggs""#)
    #expect(try harness.count(.recipeIngredient) == 2)
    #expect(try harness.count(.ingredientTemplate) == 2)
  }

  @Test func aSimilarTitleCreatesNothingUnlessAnyway() throws {
    let harness = try Harness()
    try harness.run(lasagna)
    try harness.expectFailure(
      "recipe add Moms Lasagna", .failed,
      mentions: ["recipe add: name:", "similar title already exists: 'Mom's Lasagna'", "--anyway"])
    try harness.run("recipe add Moms Lasagna --anyway")
    #expect(try harness.count(.recipe) == 2)
    let duplicates = try harness.json("recipe duplicates").rows("duplicates")
    #expect(duplicates.count == 2)
    #expect(duplicates.first?.string("key") == "moms lasagna")
    #expect(duplicates.first?.string("role") == "keeper")
  }

  @Test func badRecipeValuesAreRefusedWithTheField() throws {
    let harness = try Harness()
    try harness.expectFailure("recipe add Soup --prep soon", .failed, mentions: ["recipe add", "prep time 'soon'"])
    try harness.expectFailure("recipe add Soup --url ftp:/x", .failed, mentions: ["url 'ftp:/x'"])
    try harness.expectFailure("recipe add Soup --page 0", .usage, mentions: ["--page", "'0' is out of range", "from 1 to 1,000,000"])
    try harness.expectFailure("recipe add Soup --ingredient \"2 cups\"", .failed, mentions: ["ingredient line 1 '2 cups'"])
    try harness.expectFailure("recipe add Soup --published 2024-99-01", .usage, mentions: ["--published", "not a date"])
  }

  @Test func listFiltersByCuisineAndSearchFindsByIngredient() throws {
    let harness = try Harness()
    try harness.run("seed sample")
    let asian = try harness.json("recipe list --cuisine asian").rows("recipes").compactMap { $0.string("name") }
    #expect(asian == ["Chicken Stir-Fry", "Egg Fried Rice"])
    let found = try harness.json("recipe search tahini").rows("recipes").compactMap { $0.string("name") }
    #expect(found.contains("Roasted Cauliflower with Tahini"))
    try harness.expectFailure("recipe search \"  \"", .failed, mentions: ["recipe search", "give some text"])
  }

  @Test func setChangesFieldsAndClearsWithAnEmptyValue() throws {
    let harness = try Harness()
    try harness.run("recipe add Soup --cuisine Thai --url https://example.com/soup")
    try harness.run("recipe set Soup --cuisine Vietnamese --tag quick --favorite yes --url \"\" --step Simmer.")
    let recipe = try #require(try harness.json("recipe show Soup")["recipe"])
    #expect(recipe.string("cuisine") == "Vietnamese")
    #expect(recipe["url"] == .null)
    #expect(recipe.string("source") == "manual")
    #expect(recipe["favorite"] == .bool(true))
    #expect(recipe["tags"] == .array(["quick"]))
    try harness.run("recipe set Soup --untag quick")
    #expect(try harness.json("recipe show Soup")["recipe"]?["tags"] == .null)
    try harness.expectFailure("recipe set Soup", .failed, mentions: ["recipe set", "nothing to change"])
    try harness.expectFailure("recipe set Soup --untag nope", .failed, mentions: ["no tag named 'nope'"])
  }

  @Test func renameMergeAndDelete() throws {
    let harness = try Harness()
    try harness.run("recipe add Lasagne --cuisine Italian\nrecipe add \"Mom's Lasagna\" --tag family")
    #expect(try harness.text("recipe rename Lasagne to Moms Lasagna").contains("note: now similar to 'Mom's Lasagna'"))
    let ids = try harness.json("recipe duplicates").rows("duplicates").compactMap { $0.string("id") }
    try harness.expectFailure("recipe show Moms Lasagna", .failed, mentions: ["2 recipes are named"])
    try harness.run("recipe merge \(ids[1]) into \(ids[0])")
    #expect(try harness.count(.recipe) == 1)
    let merged = try #require(try harness.json("recipe show \"Mom's Lasagna\"")["recipe"])
    #expect(merged.string("cuisine") == "Italian")
    try harness.expectFailure("recipe merge \(ids[0]) into \(ids[0])", .failed, mentions: ["recipe merge", "into itself"])
    try harness.run("recipe delete \"Mom's Lasagna\"")
    #expect(try harness.count(.recipe) == 0)
    try harness.expectFailure("recipe delete \"Mom's Lasagna\"", .failed, mentions: ["no recipe named"])
  }
}
