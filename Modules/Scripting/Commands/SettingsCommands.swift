import CommandLanguage
import Model
import Repositories

/// settings units: how the session shows amounts (and `settings history`, the history bounds
/// of the current device, in ``HistoryCommands``).
enum SettingsCommands {
  static let group = CommandGroup("settings", summary: "Session and device settings", commands: [units, HistoryCommands.bounds])

  static let choices = UnitPreference.allCases.map(\.rawValue) + [asWritten]
  static let asWritten = "as-written"

  static let units = CommandSpec(
    "settings units",
    summary:
      "Show list amounts in metric or US units from now on, or 'as-written' (each line in the system its first amount used); without a value, say which is set. Held by this session, not synced.",
    parameters: [.word("system", .choice(choices), optional: true, completion: .words(choices), help: "metric, us or as-written")],
    examples: ["settings units metric", "settings units us", "settings units"]
  ) { invocation, session in
    if let choice = invocation.optionalArgument("system") {
      session.units = UnitPreference(rawValue: choice)
    }
    let current = session.units?.rawValue ?? asWritten
    return CommandResult(.message("units: \(current)"), .data(key: "units", .string(current)))
  }
}
