import Foundation
import TestSupport
import Testing

/// `sync wait` in `forager-batch` processes: a script waiting for a household's change exits
/// 0 once another process's push reaches it, and 1, naming what it waited for, when its
/// timeout runs out — so multi-device scripts can rely on its exit status.
@Suite struct SyncWaitProcessTests {
  @Test func aScriptWaitingForAnotherProcessExitsZeroWhenReachedAndOneWhenTimedOut() throws {
    let directory = try TemporaryDirectory.make()
    let cloud = directory.appendingPathComponent("cloud.sqlite").path
    let phone = directory.appendingPathComponent("phone.sqlite").path
    let laptop = directory.appendingPathComponent("laptop.sqlite").path

    // Nothing has Milk yet: the wait runs out, the script stops there, the process exits 1.
    let early = try runProcess(
      "forager-batch", ["--store", laptop, "-"],
      input: """
        cloud open \(cloud)
        sync wait --until "item Milk on Groceries" --timeout 0.5
        category add "Never reached"
        """)
    #expect(early.status == 1, "\(early.stdout)\n\(early.stderr)")
    let message = early.stdout + early.stderr
    #expect(message.contains("timed out after 0.5 s"))
    #expect(message.contains("item 'Milk' on list 'Groceries'"))
    #expect(!message.contains("Never reached"))

    let push = try runProcess(
      "forager-batch", ["--store", phone, "-"],
      input: """
        cloud open \(cloud)
        list new Groceries --week 2024-W50
        list add Milk to Groceries
        sync
        """)
    #expect(push.status == 0, "\(push.stdout)\n\(push.stderr)")
    let reached = try runProcess(
      "forager-batch", ["--store", laptop, "-"],
      input: """
        cloud open \(cloud)
        sync wait --until "item Milk on Groceries" --timeout 60
        expect count category 0
        """)
    #expect(reached.status == 0, "\(reached.stdout)\n\(reached.stderr)")
  }
}
