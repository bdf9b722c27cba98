import CommandLanguage
import Model
import Repositories

/// duplicates: live records that share a semantic key.
enum DuplicatesCommands {
  static let duplicates = CommandSpec(
    "duplicates",
    summary: "Live records that share a semantic key: possible duplicate recipes, and for unique kinds what should never exist.",
    parameters: [.word("kind", .kind, optional: true, completion: .words(KitchenValues.kindWords), help: "only this kind")],
    examples: ["duplicates", "duplicates recipe"]
  ) { invocation, session in
    let kinds = invocation.optionalArgument("kind").flatMap(EntityKind.init(rawValue:)).map { [$0] } ?? EntityKind.allCases
    return Rows.duplicates(try session.library.duplicates(of: kinds))
  }
}
