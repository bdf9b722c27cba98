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
      for paragraph in paragraphs(text) { append(paragraph, to: &sections) }
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
      } else if !name.isEmpty, let text = JSONMember.value(object, "text") as? String {
        let steps = paragraphs(text)
        // "Make the dough" over three paragraphs: a section, so the name is kept.
        let titled = steps.count > 1 && !repeats(name, steps)
        if titled { sections.append(.init(name: name, steps: [])) }
        for step in steps { append(step, to: &sections) }
        if titled { sections.append(.init(steps: [])) }
      } else if let text = JSONMember.value(object, "text") {
        read(text, depth: depth + 1, into: &sections)
      } else if let children {
        read(children, depth: depth + 1, into: &sections)
      } else if !name.isEmpty {
        // A step given only by its name.
        append(name, to: &sections)
      }
    default: return
    }
  }

  /// A text's steps: one per line or HTML block, tidied, the empty ones left out.
  private static func paragraphs(_ text: String) -> [String] {
    HTMLText.breakingBlocks(text).split(whereSeparator: \.isNewline).map { HTMLText.tidy(String($0)) }.filter { !$0.isEmpty }
  }

  /// Whether a step's `name` only repeats its text (or the text's start), rather than
  /// being a title of its own.
  private static func repeats(_ name: String, _ paragraphs: [String]) -> Bool {
    let title = name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".:… "))
    let body = paragraphs.joined(separator: " ").lowercased()
    return body.hasPrefix(title) || title.hasPrefix(String(body.prefix(40)))
  }

  /// Adds a tidied, non-empty step to the last section.
  private static func append(_ step: String, to sections: inout [ImportedRecipe.Section]) {
    if sections.isEmpty { sections.append(.init(steps: [])) }
    sections[sections.count - 1].steps.append(step)
  }
}
