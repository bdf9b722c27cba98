import CommandLanguage
import Foundation
import Model
import Repositories

/// ingredient add, set, alias, list, show, rename, delete.
enum IngredientCommands {
  static let kinds = IngredientKind.allCases.map(\.rawValue)

  static let templateOptions: [OptionSpec] = [
    .value("kind", "what it is", .choice(kinds), completion: .words(kinds)),
    .value("category", "its grocery category (created when missing)", placeholder: "CATEGORY", completion: .names(.category)),
    .value("alias", "another name that means this ingredient", placeholder: "NAME", repeatable: true),
    .value("staple", "whether it is a pantry staple", .boolean, completion: .words(["yes", "no"])),
    .value(
      "grams-per-cup", "how many grams one US cup of it weighs (lets a list add its volume and mass)", .number,
      range: .above(0, atMost: IngredientTemplateRepository.maximumGramsPerCup)),
  ]

  static let add = CommandSpec(
    "ingredient add",
    summary: "Create an ingredient template, or find the one with the same canonical name or alias and apply the options.",
    parameters: [.rest("name", .name, completion: .names(.ingredientTemplate), help: "the ingredient's name")],
    options: templateOptions,
    examples: ["ingredient add \"spring onion\" --kind vegetable --category Produce --alias scallion --alias \"green onion\""]
  ) { invocation, session in
    let name = invocation.argument("name")
    let existing = try session.library.ingredients.find(name)
    let template = try apply(invocation, to: name, session: session)
    let names = try Rows.categoryNames(session.library, for: [template])
    return CommandResult(
      .message("\(existing == nil ? "created" : "found existing") ingredient '\(template.displayName)'"),
      .table(Rows.ingredients([template], categoryNames: names)))
  }

  static let set = CommandSpec(
    "ingredient set", summary: "Change an existing ingredient's kind, category, staple flag or density, or add aliases.",
    parameters: [.rest("name", .name, completion: .names(.ingredientTemplate))],
    options: templateOptions,
    examples: ["ingredient set tomato --category Produce --staple no", "ingredient set flour --grams-per-cup 125"]
  ) { invocation, session in
    let name = invocation.argument("name")
    guard try session.library.ingredients.find(name) != nil else { throw RepositoryError.notFound(.ingredientTemplate, name) }
    let template = try apply(invocation, to: name, session: session)
    return CommandResult(
      .message("updated ingredient '\(template.displayName)'"),
      .table(Rows.ingredients([template], categoryNames: try Rows.categoryNames(session.library, for: [template]))))
  }

  private static func apply(_ invocation: Invocation, to name: String, session: Session) throws -> IngredientTemplate {
    let kind = invocation.option("kind").flatMap(IngredientKind.init(rawValue:))
    let library = session.library
    return try library.transaction { tx in
      try tx.ingredients.getOrCreate(
        name, kind: kind, category: invocation.option("category"), aliases: invocation.values("alias"),
        isStaple: invocation.boolean("staple"), gramsPerCup: invocation.option("grams-per-cup").flatMap(Double.init))
    }
  }

  static let alias = CommandSpec(
    "ingredient alias", summary: "Give an ingredient more names that resolve to it.",
    parameters: [
      .word("name", .name, completion: .names(.ingredientTemplate), help: "the ingredient (quote it if it has spaces)"),
      .words("alias", help: "one or more other names"),
    ],
    examples: ["ingredient alias \"spring onion\" scallion \"green onion\""]
  ) { invocation, session in
    let library = session.library
    let template = try library.transaction { tx in
      var template = try tx.ingredients.addAlias(invocation.argumentList("alias")[0], to: invocation.argument("name"))
      for alias in invocation.argumentList("alias").dropFirst() {
        template = try tx.ingredients.addAlias(alias, to: template.id.uuidString)
      }
      return template
    }
    return CommandResult(
      .message("'\(template.displayName)' is also known as \(template.aliases.map { "'\($0)'" }.joined(separator: ", "))"),
      .table(Rows.ingredients([template], categoryNames: try Rows.categoryNames(library, for: [template]))))
  }

  static let list = CommandSpec(
    "ingredient list", summary: "All ingredients by name; --category keeps one category's.",
    options: [.value("category", "only this category", placeholder: "CATEGORY", completion: .names(.category))],
    examples: ["ingredient list", "ingredient list --category Produce"]
  ) { invocation, session in
    let templates: [IngredientTemplate]
    if let name = invocation.option("category") {
      guard let category = try session.library.categories.find(name) else {
        throw invocation.failure("no category named '\(name)'", argument: "--category")
      }
      templates = try session.library.ingredients.all(inCategory: category.id)
    } else {
      templates = try session.library.ingredients.all()
    }
    return CommandResult(.table(Rows.ingredients(templates, categoryNames: try Rows.categoryNames(session.library, for: templates))))
  }

  static let show = CommandSpec(
    "ingredient show", summary: "One ingredient, found by its name, a plural or an alias.",
    parameters: [.rest("name", .name, completion: .names(.ingredientTemplate))],
    examples: ["ingredient show scallions"]
  ) { invocation, session in
    let name = invocation.argument("name")
    guard let template = try session.library.ingredients.find(name) else { throw RepositoryError.notFound(.ingredientTemplate, name) }
    let category = try template.category.flatMap { try session.library.categories.find($0.uuidString)?.displayName }
    return CommandResult(.fields(key: "ingredient", Rows.ingredientFields(template, category: category)))
  }

  static let rename = CommandSpec(
    "ingredient rename", summary: "Rename an ingredient; refused when the new name is another ingredient's name or alias.",
    parameters: [.rest("old", .name, completion: .names(.ingredientTemplate)), .keyword("to"), .rest("new", .name)],
    examples: ["ingredient rename \"roma tomato\" to \"plum tomato\""]
  ) { invocation, session in
    let template = try session.library.ingredients.rename(invocation.argument("old"), to: invocation.argument("new"))
    return CommandResult(
      .message("renamed ingredient to '\(template.displayName)'"),
      .table(Rows.ingredients([template], categoryNames: try Rows.categoryNames(session.library, for: [template]))))
  }

  static let delete = CommandSpec(
    "ingredient delete", summary: "Delete an ingredient; refused while recipes use it.",
    parameters: [.rest("name", .name, completion: .names(.ingredientTemplate))],
    examples: ["ingredient delete saffron"]
  ) { invocation, session in
    let template = try session.library.ingredients.delete(invocation.argument("name"))
    return CommandResult(.message("deleted ingredient '\(template.displayName)'"))
  }
}
