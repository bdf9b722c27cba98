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

  /// A 99th percentile, or why there is none: fewer than ``Stats/samplesForP99`` samples.
  static func formatP99(_ stats: Stats?) -> String {
    guard let stats else { return "—" }
    return stats.p99.map { formatSeconds($0) } ?? "n/a (<\(Stats.samplesForP99) samples)"
  }

  static func table(_ run: BenchRun) -> String {
    var lines = [
      "forager-bench — \(run.date) — commit \(run.commit ?? "unknown") — \(run.host)",
      "command: \(run.command)  (\(String(format: "%.0f", run.seconds)) s)",
      "",
      "load average (1 min): \(format(run.loadAtStart ?? .nan)) at the start, \(format(run.loadAtEnd ?? .nan)) at the end",
      "",
      "| Scenario | Forager median | spread | p99 | Baseline median | spread | p99 | Ratio | Peak RSS | Target | Verdict |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for result in run.results {
      let ratio = result.ratio.map { String(format: "%.2f×", $0) } ?? "—"
      let rss = result.peakResidentMiB.map { String(format: "%.0f MiB", $0) } ?? "—"
      let sizes = result.parameters.sorted { $0.key < $1.key }.map { "\($0.key.split(separator: ".").last ?? "")=\($0.value)" }
      lines.append(
        "| \(result.title) (\(sizes.joined(separator: ", "))) | \(formatSeconds(result.forager?.median)) | \(spread(result.forager)) | "
          + "\(formatP99(result.forager)) | \(formatSeconds(result.baseline?.median)) | \(spread(result.baseline)) | "
          + "\(formatP99(result.baseline)) | \(ratio) | \(rss) | \(result.target) | \(result.verdict) |"
      )
    }
    lines.append("")
    for result in run.results {
      guard let rows = result.commands else { continue }
      lines += [
        "\(result.id): per command", "", "| Command | Small median | Large median | Large p99 | Large / small | Verdict |",
        "|---|---|---|---|---|---|",
      ]
      for row in rows {
        lines.append(
          "| \(row.name) | \(formatSeconds(row.small.median)) | \(formatSeconds(row.large.median)) | \(formatSeconds(row.large.p99)) | "
            + String(format: "%.2f×", row.ratio) + " | \(row.verdict) |")
      }
      lines.append("")
    }
    for result in run.results where !result.figures.isEmpty || result.note != nil {
      let figures = result.figures.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.key, $0.value))" }
      lines.append("- \(result.id): " + (figures + [result.note].compactMap { $0 }).joined(separator: "; "))
    }
    return lines.joined(separator: "\n")
  }

  /// The fastest and slowest sample and how many there were: "1.2–1.9 s (n=5)".
  static func spread(_ stats: Stats?) -> String {
    guard let stats, stats.count > 1 else { return "—" }
    return "\(formatSeconds(stats.min))–\(formatSeconds(stats.max)) (n=\(stats.count))"
  }

  private static func format(_ value: Double) -> String { value.isFinite ? String(format: "%.2f", value) : "—" }

  private static func format(_ name: String, _ value: Double) -> String {
    if name.hasSuffix("/s") { return String(format: "%.0f", value) }
    if name.hasSuffix("count") && value.rounded() == value { return String(format: "%.0f", value) }
    if name.hasSuffix("MiB") || name.hasSuffix("KB") || name.hasSuffix("%") || name.hasSuffix("×") || name.hasSuffix("count") {
      return String(format: "%.2f", value)
    }
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
    for result in new.results {
      guard let rows = result.commands else { continue }
      let before = old.results.first { $0.id == result.id }?.commands ?? []
      print("\n| \(result.id): command | large median before | after | large/small before → after |")
      print("|---|---|---|---|")
      for row in rows {
        let old = before.first { $0.name == row.name }
        let ratios = [old?.ratio, row.ratio].map { $0.map { String(format: "%.2f×", $0) } ?? "—" }.joined(separator: " → ")
        print("| \(row.name) | \(formatSeconds(old?.large.median)) | \(formatSeconds(row.large.median)) | \(ratios) |")
      }
    }
  }
}
