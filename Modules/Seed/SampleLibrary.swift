public import Model
public import Repositories

/// A cookbook of the sample.
public struct SampleBook: Sendable, Hashable {
  public let title: String
  public let author: String
}

/// An ingredient template of the sample, with the default category it goes in.
public struct SampleTemplate: Sendable, Hashable {
  public let name: String
  public let kind: IngredientKind
  /// One of ``Seed/defaultCategories``.
  public let category: String
  /// Other names that resolve to this template.
  public let aliases: [String]
  public let isStaple: Bool

  init(_ name: String, _ kind: IngredientKind, _ category: String, aliases: [String] = [], isStaple: Bool = false) {
    self.name = name
    self.kind = kind
    self.category = category
    self.aliases = aliases
    self.isStaple = isStaple
  }
}

/// A recipe of the sample and the stable key that gives it the same id on every device.
public struct SampleRecipe: Sendable, Hashable {
  /// Never change a published key: it is what makes two devices create one record.
  public let seedKey: String
  public let draft: RecipeDraft
}

/// The sample library as data: the books, ingredient templates and recipes that
/// ``Seed/sample(into:)`` creates. Edit this file to change the sample; the seeding logic
/// lives in `Seed.swift`, and `Tests/SeedTests` check that every line still resolves to a
/// template declared here (see Docs/SEED.md).
public enum SampleLibrary {
  /// The three cookbooks the book-sourced recipes come from.
  public static let books: [SampleBook] = [
    SampleBook(title: "Salt, Fat, Acid, Heat", author: "Samin Nosrat"),
    SampleBook(title: "The Wok", author: "J. Kenji López-Alt"),
    SampleBook(title: "Ottolenghi Simple", author: "Yotam Ottolenghi"),
  ]

  private static let produce = "Produce"
  private static let dairy = "Dairy"
  private static let meat = "Meat & Seafood"
  private static let bakery = "Bakery"
  private static let pantry = "Pantry"
  private static let frozen = "Frozen"

  /// Every template the sample recipes use, grouped by category.
  public static let templates: [SampleTemplate] = [
    // Produce
    SampleTemplate("Onion", .vegetable, produce),
    SampleTemplate("Garlic", .vegetable, produce, isStaple: true),
    SampleTemplate("Shallot", .vegetable, produce),
    SampleTemplate("Carrot", .vegetable, produce),
    SampleTemplate("Bell pepper", .vegetable, produce),
    SampleTemplate("Broccoli", .vegetable, produce),
    SampleTemplate("Cauliflower", .vegetable, produce),
    SampleTemplate("Romaine lettuce", .vegetable, produce, aliases: ["romaine", "cos lettuce"]),
    SampleTemplate("Spring onion", .vegetable, produce, aliases: ["scallion", "green onion"]),
    SampleTemplate("Ginger", .vegetable, produce, aliases: ["ginger root"]),
    SampleTemplate("Lemon", .fruit, produce),
    SampleTemplate("Lime", .fruit, produce),
    SampleTemplate("Cherries", .fruit, produce),
    SampleTemplate("Pomegranate seeds", .fruit, produce, aliases: ["pomegranate arils"]),
    SampleTemplate("Fresh basil", .herb, produce, aliases: ["basil leaves"]),
    SampleTemplate("Fresh thyme", .herb, produce),
    SampleTemplate("Flat-leaf parsley", .herb, produce, aliases: ["italian parsley"]),
    SampleTemplate("Cilantro", .herb, produce, aliases: ["coriander leaves"]),
    // Dairy
    SampleTemplate("Eggs", .protein, dairy),
    SampleTemplate("Butter", .dairy, dairy),
    SampleTemplate("Sour cream", .dairy, dairy),
    SampleTemplate("Parmesan", .dairy, dairy, aliases: ["Parmigiano-Reggiano"]),
    // Meat & Seafood
    SampleTemplate("Chicken thighs", .protein, meat),
    SampleTemplate("Duck breast", .protein, meat, aliases: ["magret"]),
    SampleTemplate("Anchovy fillets", .protein, meat),
    // Bakery
    SampleTemplate("Baguette", .grain, bakery),
    // Pantry
    SampleTemplate("Spaghetti", .grain, pantry),
    SampleTemplate("Jasmine rice", .grain, pantry),
    SampleTemplate("Chickpeas", .protein, pantry, aliases: ["garbanzo beans"]),
    SampleTemplate("Black beans", .protein, pantry, aliases: ["turtle beans"]),
    SampleTemplate("San Marzano tomatoes", .vegetable, pantry),
    SampleTemplate("Olive oil", .pantryStaple, pantry, aliases: ["extra-virgin olive oil"], isStaple: true),
    SampleTemplate("Vegetable oil", .pantryStaple, pantry, isStaple: true),
    SampleTemplate("Toasted sesame oil", .condiment, pantry),
    SampleTemplate("Salt", .spice, pantry, aliases: ["kosher salt"], isStaple: true),
    SampleTemplate("Black pepper", .spice, pantry, isStaple: true),
    SampleTemplate("White pepper", .spice, pantry),
    SampleTemplate("Red pepper flakes", .spice, pantry, aliases: ["crushed red pepper", "chili flakes"]),
    SampleTemplate("Ground cumin", .spice, pantry),
    SampleTemplate("Smoked paprika", .spice, pantry, aliases: ["pimentón"]),
    SampleTemplate("Chili powder", .spice, pantry),
    SampleTemplate("Cornstarch", .pantryStaple, pantry),
    SampleTemplate("Baking soda", .pantryStaple, pantry),
    SampleTemplate("Vegetable broth", .pantryStaple, pantry, aliases: ["vegetable stock"]),
    SampleTemplate("Chicken stock", .pantryStaple, pantry, aliases: ["chicken broth"]),
    SampleTemplate("Soy sauce", .condiment, pantry),
    SampleTemplate("Shaoxing wine", .condiment, pantry, aliases: ["Chinese cooking wine"]),
    SampleTemplate("Tahini", .condiment, pantry, aliases: ["tahina"]),
    SampleTemplate("Dijon mustard", .condiment, pantry),
    SampleTemplate("Worcestershire sauce", .condiment, pantry),
    SampleTemplate("Balsamic vinegar", .condiment, pantry),
    SampleTemplate("Honey", .condiment, pantry),
    SampleTemplate("Red wine", .other, pantry),
    SampleTemplate("Peanuts", .other, pantry),
    SampleTemplate("Pine nuts", .other, pantry),
    // Frozen
    SampleTemplate("Frozen peas", .vegetable, frozen),
  ]

  private static let saltFatAcidHeat = books[0]
  private static let theWok = books[1]
  private static let ottolenghiSimple = books[2]

  /// The eight sample recipes, in the order they are created.
  public static let recipes: [SampleRecipe] = [
    SampleRecipe(
      seedKey: "sample:classic-tomato-pasta",
      draft: RecipeDraft(
        name: "Classic Tomato Pasta",
        ingredients: [
          "12 oz (340 g) spaghetti",
          "3 tbsp extra-virgin olive oil",
          "1 medium onion, finely diced",
          "4 cloves garlic, thinly sliced",
          "1 (28 oz / 800 g) can San Marzano tomatoes",
          "½ tsp red pepper flakes",
          "1 tsp kosher salt, plus more to taste",
          "2 tbsp butter",
          "1 cup fresh basil, torn",
          "½ cup (40 g) grated Parmesan, for serving",
        ],
        instructions: [
          "Bring a large pot of well-salted water to a boil.",
          "Warm the olive oil over medium heat and cook the onion with a pinch of salt until soft, about 10 minutes.",
          "Add the garlic and red pepper flakes and cook for 30 seconds, then crush in the tomatoes and simmer for 20 minutes.",
          "Cook the spaghetti until just shy of al dente, then finish it in the sauce with the butter and a splash of pasta water.",
          "Tear in the basil and serve with Parmesan.",
        ],
        description: "A plain, bright tomato sauce that teaches when to salt and how fat carries flavour.",
        cuisine: "Italian", category: "Main course", yield: "4 servings", prepTime: "PT10M", cookTime: "PT35M",
        keywords: ["pasta", "tomato", "weeknight"], tags: ["Vegetarian", "Weeknight"],
        book: saltFatAcidHeat.title, bookAuthor: saltFatAcidHeat.author, page: 234
      )
    ),
    SampleRecipe(
      seedKey: "sample:chicken-stir-fry",
      draft: RecipeDraft(
        name: "Chicken Stir-Fry",
        ingredients: [
          "1 lb (450 g) boneless, skinless chicken thighs, cut into ½-inch strips",
          "2 tbsp soy sauce, divided",
          "1 tbsp Shaoxing wine",
          "2 tsp cornstarch",
          "3 tbsp vegetable oil, divided",
          "1 head broccoli, cut into small florets",
          "1 bell pepper (red or yellow), thinly sliced",
          "3 cloves garlic, minced",
          "1 (1-inch) piece ginger, peeled and grated",
          "4 scallions, cut into 1-inch pieces",
          "1 tsp toasted sesame oil",
          "⅓ cup peanuts, roughly chopped",
        ],
        instructions: [
          "Toss the chicken with 1 tbsp soy sauce, the Shaoxing wine and the cornstarch; rest 15 minutes.",
          "Heat the wok until smoking, add 2 tbsp oil and sear the chicken in one layer; remove.",
          "Add the remaining oil, stir-fry the broccoli and pepper for 2 minutes, then the garlic, ginger and scallions for 30 seconds.",
          "Return the chicken, add the remaining soy sauce and the sesame oil, toss and finish with peanuts.",
        ],
        description: "Velveted chicken and crisp vegetables over the highest heat your stove has.",
        cuisine: "Asian", category: "Main course", yield: "4 servings", prepTime: "PT25M", cookTime: "PT10M",
        keywords: ["stir-fry", "chicken", "wok"], tags: ["Weeknight", "Quick"],
        book: theWok.title, bookAuthor: theWok.author, page: 112
      )
    ),
    SampleRecipe(
      seedKey: "sample:roasted-cauliflower-with-tahini",
      draft: RecipeDraft(
        name: "Roasted Cauliflower with Tahini",
        ingredients: [
          "1 large cauliflower (about 2 lb / 900 g), cut into florets",
          "3 tbsp olive oil",
          "1 tsp ground cumin",
          "½ tsp smoked paprika",
          "¾ tsp salt",
          "⅓ cup (80 g) tahini",
          "1 lemon, juiced",
          "1 clove garlic, crushed",
          "2 tbsp flat-leaf parsley, chopped",
          "¼ cup pomegranate seeds",
          "2 tbsp pine nuts, toasted",
        ],
        instructions: [
          "Heat the oven to 220°C (425°F).",
          "Toss the florets with oil, cumin, paprika and salt and roast for 25 minutes, until charred at the edges.",
          "Whisk the tahini with lemon juice, garlic and enough cold water to make it pourable.",
          "Drizzle the sauce over the cauliflower and scatter with parsley, pomegranate seeds and pine nuts.",
        ],
        description: "Charred florets under a lemony tahini sauce, finished with herbs and pomegranate.",
        cuisine: "Mediterranean", category: "Side dish", yield: "4 servings as a side", prepTime: "PT15M",
        cookTime: "PT25M", keywords: ["cauliflower", "tahini", "roasting"], tags: ["Vegetarian", "Vegan"],
        book: ottolenghiSimple.title, bookAuthor: ottolenghiSimple.author, page: 78
      )
    ),
    SampleRecipe(
      seedKey: "sample:quick-black-bean-soup",
      draft: RecipeDraft(
        name: "Quick Black Bean Soup",
        ingredients: [
          "2 tbsp olive oil",
          "1 onion, chopped",
          "1 medium carrot, diced",
          "3 cloves garlic, minced",
          "2 tsp ground cumin",
          "1 tsp chili powder",
          "2 (15 oz) cans black beans, drained and rinsed",
          "4 cups (1 l) vegetable broth",
          "1 tsp salt",
          "1 lime, juiced",
          "¼ cup cilantro, chopped",
          "½ cup sour cream, for serving",
        ],
        instructions: [
          "Soften the onion and carrot in the oil for 8 minutes; add the garlic, cumin and chili powder for 1 minute.",
          "Add the beans, broth and salt and simmer for 15 minutes.",
          "Blend about half of the soup, stir it back in and season with lime juice.",
          "Serve topped with sour cream and cilantro.",
        ],
        description: "A pantry soup: canned beans, a few spices and a squeeze of lime.",
        cuisine: "Soup", category: "Soup", yield: "4 bowls", prepTime: "PT10M", cookTime: "PT25M",
        keywords: ["beans", "soup", "pantry"], tags: ["Vegetarian", "Quick"],
        url: "https://example.com/bean-soup"
      )
    ),
    SampleRecipe(
      seedKey: "sample:egg-fried-rice",
      draft: RecipeDraft(
        name: "Egg Fried Rice",
        ingredients: [
          "3 cups cooked jasmine rice (preferably day-old)",
          "3 large eggs, beaten",
          "3 tbsp vegetable oil",
          "2 scallions, thinly sliced",
          "2 cloves garlic, minced",
          "½ cup frozen peas",
          "1 tbsp soy sauce",
          "1 tsp toasted sesame oil",
          "¼ tsp white pepper",
          "½ tsp salt",
        ],
        instructions: [
          "Break up the cold rice with your fingers.",
          "Heat the wok until smoking, add the oil and scramble the eggs until just set.",
          "Add the rice and toss until every grain is hot and coated, about 3 minutes.",
          "Add the garlic, scallions and peas, then season with soy sauce, sesame oil, white pepper and salt.",
        ],
        description: "Day-old rice, very hot wok, eggs and scallions: the classic leftover dinner.",
        cuisine: "Asian", category: "Main course", yield: "2 servings", prepTime: "PT5M", cookTime: "PT10M",
        keywords: ["rice", "eggs", "wok", "leftovers"], tags: ["Quick", "Vegetarian"],
        book: theWok.title, bookAuthor: theWok.author, page: 89
      )
    ),
    SampleRecipe(
      seedKey: "sample:hummus-from-scratch",
      draft: RecipeDraft(
        name: "Hummus from Scratch",
        ingredients: [
          "250 g chickpeas (dried), soaked overnight",
          "1 tsp baking soda",
          "⅔ cup (150 g) tahini",
          "2 lemons, juiced",
          "2 cloves garlic, crushed",
          "1 tsp salt",
          "½ tsp ground cumin",
          "2 tbsp extra-virgin olive oil, for serving",
          "¼ tsp smoked paprika",
        ],
        instructions: [
          "Drain the chickpeas, cook them with the baking soda over high heat for 3 minutes, then cover with water and simmer until very soft, 20–40 minutes.",
          "Drain and blend while warm until smooth.",
          "Add the tahini, lemon juice, garlic, salt and cumin and blend, adding ice water a spoonful at a time until light and creamy.",
          "Serve with a pool of olive oil and a dusting of paprika.",
        ],
        description: "Very smooth hummus from dried chickpeas, cooked until they fall apart.",
        cuisine: "Mediterranean", category: "Dip", yield: "about 3 cups", prepTime: "PT15M", cookTime: "PT45M",
        keywords: ["chickpeas", "dip", "tahini"], tags: ["Vegan", "Make-ahead"],
        notes: "Start the night before: the chickpeas need to soak."
      )
    ),
    SampleRecipe(
      seedKey: "sample:duck-breast-with-cherry-sauce",
      draft: RecipeDraft(
        name: "Duck Breast with Cherry Sauce",
        ingredients: [
          "2 duck breasts (about 1 lb / 450 g total), skin scored",
          "1 tsp salt",
          "½ tsp freshly ground black pepper",
          "1 shallot, finely chopped",
          "½ cup (120 ml) red wine",
          "1 ½ cups (225 g) pitted cherries (fresh or frozen)",
          "2 tbsp balsamic vinegar",
          "1 tbsp honey",
          "½ cup (120 ml) chicken stock",
          "2 sprigs fresh thyme",
          "1 tbsp butter (cold), cubed",
        ],
        instructions: [
          "Season the duck and lay it skin side down in a cold pan; render over medium-low heat for 12–15 minutes.",
          "Turn and cook 2–3 minutes more for medium-rare; rest 10 minutes.",
          "Pour off most of the fat, soften the shallot, then add the wine, cherries, vinegar, honey, stock and thyme and reduce by half.",
          "Remove the thyme, swirl in the cold butter and serve with the sliced duck.",
        ],
        description: "Crisp-skinned duck with a glossy sweet-sour cherry pan sauce.",
        cuisine: "French", category: "Main course", yield: "2 servings", prepTime: "PT10M", cookTime: "PT30M",
        keywords: ["duck", "cherries", "pan sauce"], tags: ["Date night"],
        url: "https://example.com/duck-cherry"
      )
    ),
    SampleRecipe(
      seedKey: "sample:caesar-salad",
      draft: RecipeDraft(
        name: "Caesar Salad",
        ingredients: [
          "1 large head romaine lettuce, torn",
          "½ baguette (about 4 oz / 115 g), cubed",
          "5 tbsp extra-virgin olive oil, divided",
          "2 cloves garlic, minced",
          "4 anchovy fillets, finely chopped",
          "1 large egg (coddled)",
          "½ lemon, juiced",
          "1 tsp Dijon mustard",
          "1 tsp Worcestershire sauce",
          "¾ cup (60 g) finely grated Parmigiano-Reggiano",
          "½ tsp freshly ground black pepper",
          "¼ tsp salt",
        ],
        instructions: [
          "Toss the bread with 2 tbsp oil and bake at 190°C (375°F) until golden, about 10 minutes.",
          "Mash the garlic and anchovies to a paste, then whisk in the egg, lemon juice, mustard and Worcestershire.",
          "Whisk in the remaining oil in a thin stream, then half of the cheese; season with pepper and salt.",
          "Toss the lettuce with the dressing and croutons and finish with the rest of the cheese.",
        ],
        description: "Crisp romaine, garlicky anchovy dressing and homemade croutons.",
        cuisine: "American", category: "Salad", yield: "4 servings", prepTime: "PT20M", cookTime: "PT10M",
        keywords: ["salad", "anchovy", "croutons"], tags: ["Quick"]
      )
    ),
  ]
}
