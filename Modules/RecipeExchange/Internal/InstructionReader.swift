import Foundation

/// schema.org `recipeInstructions` in every form pages use: one text (a step per line),
/// an array of strings, HowToStep objects (`text`, or only a `name`), HowToSection
/// objects with a `name` and their own `itemListElement`, an ItemList, and those nested.
/// Keys and `@type` are matched in any case; texts are tidied.
enum InstructionReader {
  static func sections(_ value: Any?) -> [ImportedRecipe.Section] {
    var sections: [ImportedRecipe.Section] = []
    read(value, depth: 0, into: &sections)
    return sections.filter { !$0.steps.isEmpty || $0.name != nil }
  }

  private static func read(_ value: Any?, depth: Int, into sections: inout [ImportedRecipe.Section]) {
    guard depth < RecipeLocator.maximumDepth, let value else { return }
    switch value {
    case let text as String:
      for line in HTMLText.breakingBlocks(text).split(whereSeparator: \.isNewline) { append(String(line), to: &sections) }
    case let array as [Any]:
      for element in array { read(element, depth: depth + 1, into: &sections) }
    case let object as [String: Any]:
      let type = RecipeFields.strings(JSONMember.value(object, "@type")).first?.lowercased() ?? ""
      let children = JSONMember.value(object, "itemListElement")
      let name = RecipeFields.strings(JSONMember.value(object, "name")).first.map(HTMLText.tidy) ?? ""
      let isSection = type.hasSuffix("howtosection") || (children != nil && !type.hasSuffix("howtostep") && !name.isEmpty)
      if isSection {
        sections.append(.init(name: name.isEmpty ? nil : name, steps: []))
        read(children, depth: depth + 1, into: &sections)
        // Steps after the section belong to no section.
        sections.append(.init(steps: []))
      } else if let text = JSONMember.value(object, "text") {
        if let titled = titledParagraphs(name: name, text: text) {
          // "Make the dough" over three paragraphs: a section, so the name is kept.
          sections.append(.init(name: name, steps: []))
          for paragraph in titled { append(paragraph, to: &sections) }
          sections.append(.init(steps: []))
        } else {
          read(text, depth: depth + 1, into: &sections)
        }
      } else if let children {
        read(children, depth: depth + 1, into: &sections)
      } else if !name.isEmpty {
        // A step given only by its name.
        append(name, to: &sections)
      }
    default: return
    }
  }

  /// The paragraphs of a step whose `name` is a title of its own (not the text again, nor
  /// its start) and whose `text` holds more than one paragraph; nil otherwise.
  private static func titledParagraphs(name: String, text: Any) -> [String]? {
    guard !name.isEmpty, let text = text as? String else { return nil }
    let paragraphs = HTMLText.breakingBlocks(text).split(whereSeparator: \.isNewline).map { HTMLText.tidy(String($0)) }
      .filter { !$0.isEmpty }
    guard paragraphs.count > 1 else { return nil }
    let title = name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".:… "))
    let body = paragraphs.joined(separator: " ").lowercased()
    return body.hasPrefix(title) || title.hasPrefix(String(body.prefix(40))) ? nil : paragraphs
  }

  private static func append(_ raw: String, to sections: inout [ImportedRecipe.Section]) {
    let step = HTMLText.tidy(raw)
    guard !step.isEmpty else { return }
    if sections.isEmpty { sections.append(.init(steps: [])) }
    sections[sections.count - 1].steps.append(step)
  }
}
