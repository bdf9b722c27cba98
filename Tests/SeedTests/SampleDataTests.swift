import Model
import Repositories
import Seed
import Testing

/// The sample as data, checked without a store: every line reads as the template the
/// sample means, and no two templates claim the same name.
@Suite("Sample data is consistent")
struct SampleDataTests {
  /// Every key a declared template answers to (its name and aliases), mapped to its name.
  static func declaredKeys() throws -> [String: String] {
    var keys: [String: String] = [:]
    for template in SampleLibrary.templates {
      for name in [template.name] + template.aliases {
        let key = try #require(try Identity.key(for: name, as: .ingredientTemplate))
        keys[key] = template.name
      }
    }
    return keys
  }

  @Test func everyIngredientLineReadsAsADeclaredTemplate() throws {
    let keys = try Self.declaredKeys()
    var lines = 0
    for recipe in SampleLibrary.recipes {
      for line in recipe.draft.ingredients {
        let parsed = Identity.parse(ingredientLine: line)
        #expect(keys[parsed.canonicalName] != nil, "'\(line)' in \(recipe.draft.name) reads as '\(parsed.canonicalName)'")
        #expect(parsed.quantity != nil, "'\(line)' has no quantity")
        lines += 1
      }
    }
    #expect(lines == 87)
  }

  @Test func someLinesReadAsExpected() {
    let pasta = Identity.parse(ingredientLine: "½ cup (40 g) grated Parmesan, for serving")
    #expect(pasta.quantity == 0.5)
    #expect(pasta.unit == "cup")
    #expect(pasta.canonicalName == "parmesan")
    #expect(pasta.notes == "40 g; grated; for serving")
    let chicken = Identity.parse(ingredientLine: "1 lb (450 g) boneless, skinless chicken thighs, cut into ½-inch strips")
    #expect(chicken.unit == "lb")
    #expect(chicken.canonicalName == "chicken thigh")
    let scallions = Identity.parse(ingredientLine: "4 scallions, cut into 1-inch pieces")
    #expect(scallions.quantity == 4)
    #expect(scallions.canonicalName == "spring onion")
    let cherries = Identity.parse(ingredientLine: "1 ½ cups (225 g) pitted cherries (fresh or frozen)")
    #expect(cherries.quantity == 1.5)
    #expect(cherries.canonicalName == "cherry")
  }

  @Test func noTwoTemplatesShareANameOrAlias() throws {
    var owner: [String: String] = [:]
    for template in SampleLibrary.templates {
      let keys = try Set(([template.name] + template.aliases).map { try #require(try Identity.key(for: $0, as: .ingredientTemplate)) })
      for key in keys {
        #expect(owner[key] == nil, "'\(key)' is claimed by both \(owner[key] ?? "") and \(template.name)")
        owner[key] = template.name
      }
    }
    #expect(SampleLibrary.templates.count == 56)
    #expect(owner.count > SampleLibrary.templates.count)
  }

  @Test func everyTemplateIsUsedAndFiledUnderADefaultCategory() throws {
    let used = Set(SampleLibrary.recipes.flatMap { $0.draft.ingredients.map { Identity.parse(ingredientLine: $0).canonicalName } })
    let keys = try Self.declaredKeys()
    let usedTemplates = Set(used.compactMap { keys[$0] })
    for template in SampleLibrary.templates {
      #expect(usedTemplates.contains(template.name), "no sample recipe uses \(template.name)")
      #expect(Seed.defaultCategories.contains(template.category), "\(template.name) is in \(template.category)")
    }
    // Household is the one default category no sample ingredient belongs in.
    #expect(Set(SampleLibrary.templates.map(\.category)) == Set(Seed.defaultCategories).subtracting(["Household"]))
  }

  @Test func everyRecipeIsComplete() throws {
    #expect(SampleLibrary.recipes.count == 8)
    #expect(Set(SampleLibrary.recipes.map(\.seedKey)).count == 8)
    #expect(try Set(SampleLibrary.recipes.map { try Identity.key(for: $0.draft.name, as: .recipe) }).count == 8)
    for recipe in SampleLibrary.recipes {
      let draft = recipe.draft
      #expect((6...12).contains(draft.ingredients.count), "\(draft.name) has \(draft.ingredients.count) lines")
      #expect(recipe.seedKey.hasPrefix("sample:"))
      #expect(draft.prepTime?.hasPrefix("PT") == true && draft.cookTime?.hasPrefix("PT") == true, "\(draft.name)")
      #expect(draft.instructions.count >= 3 && !draft.keywords.isEmpty && !draft.tags.isEmpty, "\(draft.name)")
      #expect(draft.yield != nil && draft.cuisine != nil && draft.description != nil, "\(draft.name)")
    }
  }
}
