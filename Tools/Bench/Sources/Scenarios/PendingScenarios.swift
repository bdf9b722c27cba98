/// Rows whose Forager path does not exist yet.
enum PendingScenarios {
  static let dedup = Scenario(
    id: "dedup", title: "dedup of duplicate groups (a v1 store)", target: "< 1 s", parameters: []
  ) { context in
    var result = ScenarioResult(context)
    result.note = "pending: the v1 generator writes a realistic spread of duplicates (hundreds of groups, timed inside the migration row), not 100k groups; a generator option for many groups is needed"
    return result
  }
}
