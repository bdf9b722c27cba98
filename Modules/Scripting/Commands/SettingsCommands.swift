import CommandLanguage
import Model
import Repositories
import Sync

/// settings units, settings history: how the session shows amounts, and how much history the
/// current device keeps.
enum SettingsCommands {
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

  static let history = CommandSpec(
    "settings history",
    summary:
      "How many history entries the current device keeps per record and in all (the oldest go first); with options, set them.",
    options: [
      .value(
        "per-record", "entries kept per record", .integer,
        range: .from(Double(HistoryBounds.perRecordRange.lowerBound), to: Double(HistoryBounds.perRecordRange.upperBound))),
      .value(
        "total", "entries kept in all", .integer,
        range: .from(Double(HistoryBounds.totalRange.lowerBound), to: Double(HistoryBounds.totalRange.upperBound))),
    ],
    examples: ["settings history", "settings history --per-record 20 --total 10000"]
  ) { invocation, session in
    let store = session.current.store
    var current = try HistoryBounds.current(in: store)
    if invocation.option("per-record") != nil || invocation.option("total") != nil {
      do {
        current = try HistoryBounds(
          perRecord: invocation.integer("per-record") ?? current.perRecord, total: invocation.integer("total") ?? current.total)
      } catch let error as HistoryError {
        throw invocation.failure(error.description)
      }
      try current.save(in: store)
    }
    return CommandResult(
      .message("history keeps \(current)"),
      .data(key: "bounds", .object([.init("perRecord", .int(current.perRecord)), .init("total", .int(current.total))])))
  }
}
