import CommandLanguage
import Model
import Scripting
import Testing

@Suite struct CategoryCommandTests {
  @Test func addingACategoryTwiceFindsTheFirst() throws {
    let harness = try Harness()
    #expect(try harness.text("category add Produce").hasPrefix("created category 'Produce'"))
    #expect(try harness.text("category add \"  PRODUCE \"").hasPrefix("found existing category 'Produce'"))
    #expect(try harness.count(.category) == 1)
  }

  @Test func listShowsCategoriesInSortOrderAsAnAlignedTable() throws {
    let harness = try Harness()
    try harness.run("category add Dairy --sort 2\ncategory add \"Meat & Seafood\" --sort 1")
    #expect(
      try harness.text("category list") == """
        NAME            KEY             SORT
        Meat & Seafood  meat & seafood     1
        Dairy           dairy              2
        """)
  }

  @Test func showListsTheIngredientsInACategory() throws {
    let harness = try Harness()
    try harness.run("ingredient add tomato --category Produce")
    let json = try harness.json("category show produce")
    #expect(json["category"]?.string("name") == "Produce")
    #expect(json.rows("ingredients").map { $0.string("name") } == ["tomato"])
  }

  @Test func renameChangesTheNameAndRefusesACollision() throws {
    let harness = try Harness()
    try harness.run("category add Produce\ncategory add Dairy")
    #expect(try harness.text("category rename Produce to Fruit & Vegetables").hasPrefix("renamed category to 'Fruit & Vegetables'"))
    try harness.expectFailure(
      "category rename dairy to \"FRUIT & vegetables\"", .failed,
      mentions: ["category rename", "cannot rename to 'FRUIT & vegetables'", "'Fruit & Vegetables' already exists"])
  }

  @Test func deleteRemovesTheCategoryAndUnknownNamesFail() throws {
    let harness = try Harness()
    try harness.run("category add Household")
    try harness.run("category delete household")
    #expect(try harness.count(.category) == 0)
    try harness.expectFailure("category delete Household", .failed, mentions: ["category delete", "no category named 'Household'"])
    try harness.expectFailure("category show Nope", .failed, mentions: ["no category named 'Nope'"])
  }

  @Test func anEmptyNameOrOneWithAControlCharacterIsRefusedBeforeAnythingRuns() throws {
    let harness = try Harness()
    try harness.expectFailure("category add \"  \"", .usage, mentions: ["category add", "name: is empty"])
    try harness.expectFailure("ingredient rename basil to \"\"", .usage, mentions: ["ingredient rename", "new: is empty"])
    try harness.expectFailure("category add \"A\u{7}B\"", .syntax, mentions: ["control character (U+0007) at column 16"])
    // The whole script is read first: the good line before the bad one does not run.
    try harness.expectFailure("category add Produce\ncategory add \"\"", .usage, mentions: ["name: is empty"])
    #expect(try harness.count(.category) == 0)
  }
}

@Suite struct TagCommandTests {
  @Test func tagsAreAddedWithAColourListedRenamedAndDeleted() throws {
    let harness = try Harness()
    try harness.run("tag add weeknight --color green")
    #expect(try harness.json("tag list").rows("tags").first?.string("color") == "green")
    try harness.run("tag add vegetarian")
    try harness.expectFailure("tag rename vegetarian to Weeknight", .failed, mentions: ["tag rename", "already exists"])
    try harness.run("tag rename weeknight to quick")
    #expect(try harness.json("tag list").rows("tags").compactMap { $0.string("name") } == ["quick", "vegetarian"])
    try harness.run("tag delete quick")
    #expect(try harness.count(.tag) == 1)
  }
}

@Suite struct IngredientCommandTests {
  @Test func addingAPluralFindsTheSingularTemplate() throws {
    let harness = try Harness()
    try harness.run("ingredient add tomato --kind vegetable --category Produce --staple yes")
    #expect(try harness.text("ingredient add Tomatoes").hasPrefix("found existing ingredient 'tomato'"))
    let json = try harness.json("ingredient show TOMATOES")
    #expect(json["ingredient"]?.string("category") == "Produce")
    #expect(json["ingredient"]?.string("kind") == "vegetable")
    #expect(json["ingredient"]?["staple"] == .bool(true))
  }

  @Test func aliasesResolveToTheTemplateAndCollisionsAreRefused() throws {
    let harness = try Harness()
    try harness.run("ingredient add chickpea\ningredient add \"spring onion\"")
    try harness.run("ingredient alias chickpea \"garbanzo bean\" ceci")
    #expect(try harness.json("ingredient show garbanzo beans")["ingredient"]?.string("name") == "chickpea")
    try harness.expectFailure(
      "ingredient alias \"spring onion\" garbanzo", .failed,
      mentions: ["ingredient alias", "alias 'garbanzo' already names ingredient 'chickpea'"])
    try harness.expectFailure("ingredient alias chickpea", .usage, mentions: ["alias: missing"])
  }

  @Test func setChangesAnExistingIngredientOnly() throws {
    let harness = try Harness()
    try harness.run("ingredient add basil")
    try harness.run("ingredient set basil --kind herb --category Produce")
    #expect(try harness.json("ingredient list --category produce").rows("ingredients").first?.string("kind") == "herb")
    try harness.expectFailure(
      "ingredient set saffron --kind spice", .failed, mentions: ["ingredient set", "no ingredient named 'saffron'"])
    try harness.expectFailure("ingredient add x --kind mineral", .usage, mentions: ["--kind", "'mineral' is not one of"])
    try harness.expectFailure("ingredient list --category Nowhere", .failed, mentions: ["--category", "no category named 'Nowhere'"])
  }

  @Test func renameRefusesAnotherTemplatesNameAndDeleteRefusesWhileUsed() throws {
    let harness = try Harness()
    try harness.run("ingredient add onion\ningredient add shallot\nrecipe add Soup --ingredient \"1 onion\"")
    try harness.expectFailure("ingredient rename shallot to onions", .failed, mentions: ["ingredient rename", "already exists"])
    try harness.run("ingredient rename shallot to echalion")
    try harness.expectFailure("ingredient delete onion", .failed, mentions: ["ingredient delete", "still used by"])
    try harness.run("ingredient delete echalion")
    #expect(try harness.json("ingredient list").rows("ingredients").compactMap { $0.string("name") } == ["onion"])
  }
}

@Suite struct BookCommandTests {
  @Test func booksAreUniqueByTitleAndAuthor() throws {
    let harness = try Harness()
    #expect(try harness.text("book add \"The Wok\" --author \"J. Kenji López-Alt\"").hasPrefix("created book 'The Wok'"))
    #expect(try harness.text("book add \"the wok\" --author \"J. Kenji López-Alt\"").hasPrefix("found existing book 'The Wok'"))
    try harness.run("book add \"Simple\" --author Ottolenghi")
    #expect(try harness.json("book list").rows("books").compactMap { $0.string("title") } == ["Simple", "The Wok"])
  }

  @Test func booksAreRenamedAndDeleted() throws {
    let harness = try Harness()
    try harness.run("book add \"Salt Fat Acid Heat\" --author \"Samin Nosrat\"")
    try harness.run("book rename Salt Fat Acid Heat to \"Salt, Fat, Acid, Heat\"")
    #expect(try harness.json("book list").rows("books").first?.string("title") == "Salt, Fat, Acid, Heat")
    try harness.run("book delete \"Salt, Fat, Acid, Heat\"")
    #expect(try harness.count(.book) == 0)
    try harness.expectFailure("book delete Nope", .failed, mentions: ["book delete", "no book named 'Nope'"])
  }
}
