import Foundation

enum Report {
  static func formatSeconds(_ seconds: Double?) -> String {
    guard let seconds, seconds.isFinite else { return "—" }
    switch seconds {
    case ..<1e-3: return String(format: "%.1f µs", seconds * 1e6)
    case ..<1: return String(format: "%.1f ms", seconds * 1e3)
    default: return String(format: "%.2f s", seconds)
    }
  }

  static func table(_ run: BenchRun) -> String {
    var lines = [
      "forager-bench — \(run.date) — \(run.host)",
      "command: \(run.command)  (\(String(format: "%.0f", run.seconds)) s)",
      "",
      "| Scenario | Forager median | p99 | Baseline median | p99 | Ratio | Peak RSS | Target | Verdict |",
      "|---|---|---|---|---|---|---|---|---|",
    ]
    for result in run.results {
      let ratio = result.ratio.map { String(format: "%.2f×", $0) } ?? "—"
      let rss = result.peakResidentMiB.map { String(format: "%.0f MiB", $0) } ?? "—"
      let sizes = result.parameters.sorted { $0.key < $1.key }.map { "\($0.key.split(separator: ".").last ?? "")=\($0.value)" }
      lines.append(
        "| \(result.title) (\(sizes.joined(separator: ", "))) | \(formatSeconds(result.forager?.median)) | \(formatSeconds(result.forager?.p99)) | "
          + "\(formatSeconds(result.baseline?.median)) | \(formatSeconds(result.baseline?.p99)) | \(ratio) | \(rss) | \(result.target) | \(result.verdict) |"
      )
    }
    lines.append("")
    for result in run.results where !result.figures.isEmpty || result.note != nil {
      let figures = result.figures.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.key, $0.value))" }
      lines.append("- \(result.id): " + (figures + [result.note].compactMap { $0 }).joined(separator: "; "))
    }
    return lines.joined(separator: "\n")
  }

  private static func format(_ name: String, _ value: Double) -> String {
    if name.hasSuffix("/s") { return String(format: "%.0f", value) }
    if name.hasSuffix("MiB") || name.hasSuffix("×") || name.hasSuffix("count") { return String(format: "%.2f", value) }
    return formatSeconds(value)
  }

  /// Prints the medians of two `--json` runs side by side.
  static func compare(_ oldPath: String, _ newPath: String) throws {
    let decoder = JSONDecoder()
    let old = try decoder.decode(BenchRun.self, from: Data(contentsOf: URL(fileURLWithPath: oldPath)))
    let new = try decoder.decode(BenchRun.self, from: Data(contentsOf: URL(fileURLWithPath: newPath)))
    print("| Scenario | \(oldPath) | \(newPath) | Change | Ratio old → new |")
    print("|---|---|---|---|---|")
    for result in new.results {
      let before = old.results.first { $0.id == result.id }
      let change: String
      if let a = before?.forager?.median, let b = result.forager?.median, a > 0 {
        change = String(format: "%+.0f %%", (b / a - 1) * 100)
      } else {
        change = "—"
      }
      let ratios = [before?.ratio, result.ratio].map { $0.map { String(format: "%.2f×", $0) } ?? "—" }.joined(separator: " → ")
      print(
        "| \(result.id) | \(formatSeconds(before?.forager?.median)) | \(formatSeconds(result.forager?.median)) | \(change) | \(ratios) |")
    }
  }
}
