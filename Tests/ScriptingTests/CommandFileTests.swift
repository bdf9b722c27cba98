import CommandLanguage
import Scripting
import Testing

/// Each kitchen command is defined in the file named for its first word: every `device …`
/// command in DeviceCommands.swift, or in a `DeviceCommands+Part.swift` beside it.
@Suite struct CommandFileTests {
  /// The commands among `commands` defined outside the file their first word names, each as
  /// "'device offline' is in SyncCommands.swift, not DeviceCommands.swift".
  static func misfiled(_ commands: [CommandSpec<Session>]) -> [String] {
    commands.compactMap { command in
      let file = command.fileID.split(separator: "/").last.map(String.init) ?? command.fileID
      let word = command.words[0]
      let expected = word.prefix(1).uppercased() + word.dropFirst() + "Commands.swift"
      guard let stem = Self.stem(of: file), stem.lowercased() == word else {
        return "'\(command.name)' is in \(file), not \(expected)"
      }
      return nil
    }
  }

  /// "Device" for DeviceCommands.swift and DeviceCommands+Live.swift; nil for a file not
  /// named `<Word>Commands[+<Part>].swift`.
  static func stem(of file: String) -> String? {
    guard file.hasSuffix(".swift") else { return nil }
    let base = file.dropLast(".swift".count).split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard base.hasSuffix("Commands"), base.count > "Commands".count else { return nil }
    let stem = base.dropLast("Commands".count)
    return stem.allSatisfy(\.isLetter) ? String(stem) : nil
  }

  @Test func everyCommandIsDefinedInTheFileNamedForItsFirstWord() {
    let commands = CommandRegistry<Session>.standard.commands
    #expect(commands.count > 100)
    #expect(Self.misfiled(commands) == [])
    #expect(commands.allSatisfy { $0.fileID.hasPrefix("Scripting/") })
  }

  @Test func aCommandInAnotherWordsFileIsReported() {
    let action: @Sendable (Invocation<Session>, Session) throws -> CommandResult = { _, _ in .empty }
    let inSync = CommandSpec<Session>(
      "device offline", summary: "s", examples: ["device offline"], fileID: "Scripting/SyncCommands.swift", action: action)
    let inPart = CommandSpec<Session>(
      "sync live", summary: "s", examples: ["sync live"], fileID: "Scripting/SyncCommands+Live.swift", action: action)
    let inHelper = CommandSpec<Session>("trash", summary: "s", examples: ["trash"], fileID: "Scripting/Rows.swift", action: action)
    let here = CommandSpec<Session>("mealplan add", summary: "s", examples: ["mealplan add x"], action: action)
    #expect(
      Self.misfiled([inSync, inPart, inHelper, here]) == [
        "'device offline' is in SyncCommands.swift, not DeviceCommands.swift",
        "'trash' is in Rows.swift, not TrashCommands.swift",
        "'mealplan add' is in CommandFileTests.swift, not MealplanCommands.swift",
      ])
  }
}
