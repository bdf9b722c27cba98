import BenchBaselines
import CommandLanguage
import Foundation
import Model
import Repositories
import Scripting

/// The commands users run, as `forager-batch` runs them (a ``Session`` and a
/// ``ScriptRunner``: parse, run, render), on a small and a large kitchen (SQLite files),
/// and REPL tab completion on both. Each command's cost should not depend on how much
/// the kitchen holds: the large store's median within 1.5× of the small one's.
enum CommandScenario {
  /// One command kind: the line for its `n`th run on a kitchen.
  struct Command: Sendable {
    let name: String
    let line: @Sendable (KitchenFixture, Int) -> String
  }

  /// Spreads run `n` over `count` records (a stride prime to any count the fixture makes).
  static func pick(_ n: Int, _ count: Int) -> Int { (n * 7_919 + 3) % max(count, 1) }

  /// "X" on even runs and back on odd runs: a rename that leaves the store as it was after
  /// every pair, so rounds can repeat it.
  static func renameBackAndForth(_ command: String, _ name: String, _ n: Int) -> String {
    n % 2 == 0 ? "\(command) \"\(name)\" to \"\(name) renamed\"" : "\(command) \"\(name) renamed\" to \"\(name)\""
  }

  static let commands: [Command] = [
    Command(name: "category add (new)") { _, n in "category add \"fresh aisle \(KitchenFixture.code(n))\"" },
    Command(name: "category add (existing)") { kitchen, n in
      "category add \"\(KitchenFixture.category(pick(n, kitchen.categories)).uppercased())\""
    },
    Command(name: "category rename") { kitchen, n in
      renameBackAndForth("category rename", KitchenFixture.category(pick(n / 2, kitchen.categories)), n)
    },
    Command(name: "category show") { kitchen, n in "category show \(KitchenFixture.category(pick(n, kitchen.categories)))" },
    Command(name: "ingredient add (new)") { kitchen, n in
      "ingredient add \"fresh herb \(KitchenFixture.code(n))\" --category \"\(KitchenFixture.category(pick(n, kitchen.categories)))\""
    },
    Command(name: "ingredient add (existing)") { kitchen, n in "ingredient add \(KitchenFixture.ingredient(pick(n, kitchen.ingredients)))s"
    },
    Command(name: "ingredient set") { kitchen, n in
      "ingredient set \"\(KitchenFixture.ingredient(pick(n, kitchen.ingredients)))\" --staple \(n % 2 == 0 ? "yes" : "no") --kind herb"
    },
    Command(name: "ingredient rename") { kitchen, n in
      renameBackAndForth("ingredient rename", KitchenFixture.ingredient(pick(n / 2, kitchen.ingredients)), n)
    },
    Command(name: "ingredient show") { kitchen, n in "ingredient show \(KitchenFixture.ingredient(pick(n, kitchen.ingredients)))" },
    Command(name: "tag add") { _, n in "tag add \"fresh tag \(KitchenFixture.code(n))\" --color green" },
    Command(name: "tag rename") { kitchen, n in renameBackAndForth("tag rename", KitchenFixture.tag(pick(n / 2, kitchen.tags)), n) },
    Command(name: "recipe add") { kitchen, n in
      let lines = (0..<KitchenFixture.linesPerRecipe).map {
        "--ingredient \"\($0 + 1) cups \(KitchenFixture.ingredient(pick(n * 5 + $0, kitchen.ingredients)))\""
      }
      return "recipe add \"fresh dish \(KitchenFixture.code(n))\" --cuisine Italian --tag \"\(KitchenFixture.tag(pick(n, kitchen.tags)))\" "
        + lines.joined(separator: " ")
    },
    Command(name: "recipe set") { kitchen, n in
      "recipe set \"\(KitchenFixture.recipe(pick(n, kitchen.recipes)))\" --cuisine \(n % 2 == 0 ? "Thai" : "Italian") --favorite \(n % 2 == 0 ? "yes" : "no")"
    },
    Command(name: "recipe rename") { kitchen, n in
      renameBackAndForth("recipe rename", KitchenFixture.recipe(pick(n / 2, kitchen.recipes)), n)
    },
    Command(name: "recipe show") { kitchen, n in "recipe show \(KitchenFixture.recipe(pick(n, kitchen.recipes)))" },
    Command(name: "recipe search") { kitchen, n in "recipe search \(KitchenFixture.recipe(pick(n, kitchen.recipes)))" },
    // Items go to one list of their own on both kitchens, so the lists `list show` shows
    // keep the same size on both (the small kitchen has only two).
    Command(name: "list add") { kitchen, n in
      "list add 3 \(KitchenFixture.ingredient(pick(n, kitchen.ingredients))) to \"\(scratchList)\""
    },
    Command(name: "list add-recipe") { kitchen, n in
      "list add-recipe \"\(KitchenFixture.recipe(pick(n, kitchen.recipes)))\" --all to \"\(scratchList)\""
    },
    Command(name: "list show") { kitchen, n in "list show \(KitchenFixture.list(pick(n, kitchen.lists)))" },
    Command(name: "meal plan") { kitchen, n in
      "meal plan \(KitchenFixture.day(pick(n, kitchen.plannedDays))) \(KitchenFixture.mealTypes[n % 4]) \(KitchenFixture.recipe(pick(n + 1, kitchen.recipes)))"
    },
    Command(name: "meal week") { kitchen, n in "meal week \(KitchenFixture.day(pick(n, kitchen.plannedDays)))" },
    Command(name: "sync status") { _, _ in "sync status" },
    Command(name: "counts") { _, _ in "counts" },
  ]

  /// The list the list commands add to.
  static let scratchList = "scratch list"

  /// What tab completion is asked: the line before the word, the word, whether it is
  /// quoted. Each asks for as many names on a small kitchen as on a large one: a whole
  /// name (itself only) or all but its last letter (one block of names).
  static func completions(_ kitchen: KitchenFixture, _ n: Int) -> [(name: String, before: String, word: String, inQuote: Bool)] {
    let blocks = { (count: Int) in max(count / KitchenFixture.block * KitchenFixture.block, 1) }
    let recipe = KitchenFixture.recipe(pick(n, blocks(kitchen.recipes))),
      ingredient = KitchenFixture.ingredient(pick(n, blocks(kitchen.ingredients)))
    return [
      ("complete recipe show dish … (\(KitchenFixture.block) names)", "recipe show dish ", String(recipe.dropFirst(5).dropLast()), false),
      ("complete ingredient show \"herb … (\(KitchenFixture.block) names)", "ingredient show \"", String(ingredient.dropLast()), true),
      ("complete list add … to LIST (1 name)", "list add 2 milk to ", KitchenFixture.list(pick(n, kitchen.lists)), false),
    ]
  }

  /// A session on a kitchen of `records` records in a SQLite file, synced once with a
  /// cloud in memory (so `sync status` finds nothing pending, as on a device in use).
  static func kitchen(_ records: Int, path: String) throws -> (
    session: Session, runner: ScriptRunner, fixture: KitchenFixture, seconds: Double, output: Counter
  ) {
    let fixture = KitchenFixture(records: records)
    let session = try Session(location: "sqlite:" + path)
    let build = try time { try fixture.build(in: session.library) }
    let output = Counter()
    let runner = ScriptRunner(
      session: session, scriptName: "bench", output: { output.characters += $0.count }, diagnostics: { output.errors.append($0) })
    let sync = try time { try run("list new \"\(scratchList)\" --week 2021-W01\ncloud open --memory\nsync", runner, output) }
    return (session, runner, fixture, build + sync, output)
  }

  /// What a runner printed: characters, and error lines.
  final class Counter {
    var characters = 0
    var errors: [String] = []
  }

  static func run(_ line: String, _ runner: ScriptRunner, _ output: Counter) throws {
    let report = runner.run(line)
    guard report.status == .success else { throw BenchError("`\(line)` failed: \(output.errors.joined(separator: "; "))") }
  }

  static let scenario = Scenario(
    id: "commands", title: "commands on a small vs a large kitchen (per command: large/small)",
    target: "every command ≤ 1.5× from small to large; completion < 50 ms",
    parameters: ["commands.small", "commands.large", "commands.ops"]
  ) { context in
    let small = try kitchen(context.sizes["commands.small"], path: context.path("small.sqlite"))
    let large = try kitchen(context.sizes["commands.large"], path: context.path("large.sqlite"))
    let ops = max(2, context.sizes["commands.ops"] / 2 * 2)
    var rows: [CommandRow] = []
    var smallAll: [Double] = [], largeAll: [Double] = []
    for command in commands {
      var samples: (small: [Double], large: [Double]) = ([], [])
      for round in 0..<context.rounds {
        for offset in 0..<ops {
          let n = round * ops + offset
          let smallLine = command.line(small.fixture, n), largeLine = command.line(large.fixture, n)
          samples.small.append(try time { try run(smallLine, small.runner, small.output) })
          samples.large.append(try time { try run(largeLine, large.runner, large.output) })
        }
      }
      rows.append(CommandRow(command.name, small: samples.small, large: samples.large, limit: 1.5))
      smallAll += samples.small
      largeAll += samples.large
    }
    var completionWorst = 0.0
    for index in completions(small.fixture, 0).indices {
      var samples: (small: [Double], large: [Double]) = ([], [])
      var name = ""
      for n in 0..<(context.rounds * ops) {
        for (side, kitchen) in [(0, small), (1, large)] {
          let ask = completions(kitchen.fixture, n)[index]
          name = ask.name
          let completer = Completer(context: kitchen.session)
          var found: [String] = []
          let seconds = time { found = completer.candidates(before: ask.before, word: ask.word, inQuote: ask.inQuote) }
          guard !found.isEmpty else { throw BenchError("\(ask.name): no candidates for '\(ask.before)\(ask.word)'") }
          if side == 0 { samples.small.append(seconds) } else { samples.large.append(seconds) }
        }
      }
      let row = CommandRow(name, small: samples.small, large: samples.large, limit: 1.5)
      completionWorst = max(completionWorst, row.large.median)
      rows.append(row)
    }
    var result = ScenarioResult(context)
    result.compare(largeAll, smallAll)
    result.commands = rows
    let worst = rows.map(\.ratio).max() ?? .infinity
    result.ratio = worst
    result.judge(worst <= 1.5 && completionWorst < 0.05)
    result.figures["small store records count"] = Double(small.fixture.records)
    result.figures["large store records count"] = Double(large.fixture.records)
    result.figures["small store built and synced"] = small.seconds
    result.figures["large store built and synced"] = large.seconds
    result.figures["slowest completion on the large store"] = completionWorst
    result.note =
      "Forager column = every command on the large store, baseline column = the same on the small store; Ratio = the worst command's large/small (per-command table below)"
    return result
  }
}
