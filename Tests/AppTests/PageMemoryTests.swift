import Foundation
import Model
import ServerTestSupport
import SpawnSupport
import Sync
import TestSupport
import Testing

/// Pull pages are bounded in bytes, so the server's memory under concurrent pulls of a log of
/// large batches follows `--max-page-bytes`, not the log: a `forager-server` process holding
/// 16 batches of 3.5 MiB (56 MiB) is pulled whole by four devices at once, page after page,
/// and its peak resident set (`VmHWM` in /proc) grows by well under one copy of the log per
/// device — where pages of the whole log (measured: about one copy per concurrent pull)
/// would pass the bound.
@Suite(.enabled(if: postgresAvailable, "PostgreSQL is not installed"), .timeLimit(.minutes(5)))
struct PageMemoryTests {
  /// A batch of a schema newer than the server reads (stored unread, within the held quota),
  /// carrying one text of `bytes` bytes.
  static func largeBatch(_ number: Int, bytes: Int) -> Data {
    let stamp = Stamp(time: 1, counter: 0, replica: "pager")
    let change = RecordChange(
      kind: .category, id: UUID(), createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
      ownerID: "owner", sharingScope: .private,
      fields: ["notes": StampedValue(value: .text(String(repeating: "x", count: bytes)), stamp: stamp)])
    return ChangeBatchCoding.encode(ChangeBatch(id: "pager:\(number)-\(number)", replica: "pager", schemaVersion: 99, changes: [change]))
  }

  /// The process's peak resident set, in MiB.
  static func peakMiB(_ pid: Int32) -> Double? {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }.map { $0 / 1_024 }
  }

  /// Pulls the whole log page after page with curl; how many batches came.
  static func pullAll(_ url: String, token: String, directory: URL) -> Int {
    var cursor: String?, batches = 0
    for _ in 0..<100 {
      let body = directory.appendingPathComponent("page-\(UUID().uuidString)").path
      let query = cursor.flatMap { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) }.map { "?cursor=\($0)" } ?? ""
      guard
        (try? Spawn.run(
          "/usr/bin/curl", ["-s", "-m", "120", "-o", body, "-H", "Authorization: Bearer \(token)", url + "/v1/batches" + query])) != nil,
        let data = FileManager.default.contents(atPath: body),
        let page = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let entries = page["entries"] as? [Any]
      else { return batches }
      try? FileManager.default.removeItem(atPath: body)
      if entries.isEmpty { return batches }
      batches += entries.count
      cursor = page["cursor"] as? String
    }
    return batches
  }

  @Test func fourDevicesPullingALogOfLargeBatchesStayWithinThePageBudget() throws {
    let directory = try TemporaryDirectory.make()
    let database = try ServerProcessesTests.household(directory, devices: ["phone"])
    let token = try String(contentsOf: directory.appendingPathComponent("phone.token"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let server = try ServerProcess(
      databaseURL: database, directory: directory, name: "server", arguments: ["--held-batch-bytes", "134217728", "--rate-burst", "1000"])
    defer { server.stop() }
    let count = 16, size = 3_500_000
    for number in 1...count {
      let file = directory.appendingPathComponent("batch")
      try Self.largeBatch(number, bytes: size).write(to: file)
      let status = try Spawn.run(
        "/usr/bin/curl",
        [
          "-s", "-m", "120", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Authorization: Bearer \(token)",
          "-H", "Content-Type: application/vnd.forager.batch", "-H", "Forager-Device-Sequence: \(number)",
          "--data-binary", "@\(file.path)", server.url + "/v1/batches",
        ])
      #expect(status == "201", "push \(number) was answered \(status)")
    }
    let before = try #require(Self.peakMiB(server.pid))
    let pulled = Counts()
    let url = server.url
    let pullers = (0..<4).map { _ in
      Thread { pulled.add(Self.pullAll(url, token: token, directory: directory)) }
    }
    for puller in pullers { puller.start() }
    for _ in 0..<2_400 where pulled.finished < 4 { usleep(100_000) }
    #expect(pulled.values == [count, count, count, count], "pulled \(pulled.values)")
    let after = try #require(Self.peakMiB(server.pid))
    // Measured: about 2.3 × pullers × the 8 MiB page budget (≈ 75 MiB); whole-log pages
    // would take about one 56 MiB copy per pull (≈ 210 MiB).
    let logMiB = Double(count * size) / 1_048_576
    #expect(after - before < 2.5 * logMiB, "the peak grew from \(before) to \(after) MiB pulling a \(logMiB) MiB log four times at once")
  }
}

/// What the pulling threads report.
final class Counts: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [Int] = []
  var values: [Int] { lock.withLock { list } }
  var finished: Int { lock.withLock { list.count } }
  func add(_ value: Int) { lock.withLock { list.append(value) } }
}
