import Foundation
import TestSupport
import Testing

/// Two separate `forager` processes, each a device with its own store, sync through one
/// SQLite cloud file.
@Suite struct SyncProcessesTests {
  @Test func twoREPLProcessesShareACloudFileAndConverge() throws {
    let directory = try TemporaryDirectory.make()
    let cloud = directory.appendingPathComponent("cloud.sqlite").path
    let kitchen = directory.appendingPathComponent("kitchen.sqlite").path
    let phone = directory.appendingPathComponent("phone.sqlite").path

    let first = try runProcess(
      "forager", ["--store", kitchen],
      input: """
        cloud open \(cloud)
        category add Produce
        ingredient add basil --category produce
        recipe add "Tomato Pasta" --ingredient "400 g spaghetti"
        sync
        """)
    #expect(first.status == 0, "\(first.stderr)")
    let second = try runProcess(
      "forager", ["--store", phone],
      input: """
        cloud open \(cloud)
        category add "  PRODUCE "
        ingredient add BASIL
        sync
        expect count category 1
        expect count ingredient 2
        expect field ingredient basil category Produce
        recipe add "Tomato pasta" --anyway
        sync
        """)
    #expect(second.status == 0, "\(second.stderr)")
    let again = try runProcess(
      "forager-batch", ["--store", kitchen, "-"],
      input: """
        cloud open \(cloud)
        sync
        expect count category 1
        expect count ingredient 2
        expect duplicates 1
        """)
    #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")
  }

  @Test func concurrentPushesFromTwoProcessesLoseNothing() throws {
    let directory = try TemporaryDirectory.make()
    let cloud = directory.appendingPathComponent("cloud.sqlite").path
    @Sendable func script(_ device: String) -> String {
      var lines = ["cloud open \(cloud)"]
      for index in 0..<15 {
        lines.append("category add \"Shared \(index)\"")
        lines.append("category add \"\(device) own \(index)\"")
        if index % 5 == 4 { lines.append("sync") }
      }
      lines.append("sync")
      return lines.joined(separator: "\n")
    }
    let devices = ["a", "b"]
    let results = Mutexed<[Int32]>([])
    DispatchQueue.concurrentPerform(iterations: devices.count) { index in
      let device = devices[index]
      let store = directory.appendingPathComponent("\(device).sqlite").path
      let result = try? runProcess("forager-batch", ["--store", store, "-"], input: script(device))
      results.append(result?.status ?? -1)
    }
    #expect(results.value == [0, 0])
    let check = try runProcess(
      "forager-batch", ["--store", directory.appendingPathComponent("c.sqlite").path, "-"],
      input: """
        cloud open \(cloud)
        sync
        expect count category 45
        expect duplicates 0
        """)
    #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
  }
}

/// A value several threads append to.
final class Mutexed<Value>: @unchecked Sendable {
  private var stored: Value
  private let lock = NSLock()
  init(_ value: Value) { stored = value }
  var value: Value { lock.withLock { stored } }
  func append<Element>(_ element: Element) where Value == [Element] { lock.withLock { stored.append(element) } }
}
