import CommandLanguage
import Dispatch
import Foundation
import Model
import Persistence
import Repositories
import Synchronization

/// `watch list`: a list shown again whenever it changes — a write at this prompt, a
/// live sync's pull, another process's commit to the same file — until Ctrl-C, a number
/// of showings, or a time.
enum WatchCommands {
  /// The most showings `--count` may ask for.
  static let countLimit = 10_000.0
  /// The longest watch `--for` may ask for, in seconds.
  static let durationLimit = 86_400.0
  /// How often the watch looks for Ctrl-C and runs live sync between showings.
  static let tick = DispatchTimeInterval.milliseconds(20)

  static let list = CommandSpec(
    "watch list",
    summary:
      "Show a list by aisle (as list show does) now and again after every change to it, from any source, until Ctrl-C, --count showings or --for seconds.",
    parameters: [.rest("list", completion: .names(.weeklyList), help: "a list name or id")],
    options: [
      .flag("all", "also show lines whose items are all done or that the pantry covers"),
      .value(
        "store", "follow this store's aisle order (default: the list's store, else the categories' order)", placeholder: "STORE",
        completion: .names(.groceryStore)),
      .value(
        "units", "show amounts in this system (default: the session's 'settings units')", .choice(ListCommands.unitWords),
        completion: .words(ListCommands.unitWords)),
      .value("count", "stop after this many showings (the first included)", .integer, placeholder: "N", range: .from(1, to: countLimit)),
      .value("for", "stop after this many seconds", .number, placeholder: "SECONDS", range: .above(0, atMost: durationLimit)),
    ],
    details: [
      "The list is shown again after each committed change to lists, items, ingredients, categories or stores — a write at this prompt, a live sync's pull, an import, or another forager process writing the same store file (noticed within about 10 ms). Changes that arrive together are shown once, as they stand.",
      "In the REPL, Ctrl-C ends the watch and the session goes on. In a script (forager-batch) a watch needs --count or --for, so it ends by itself.",
      "A list deleted while watched ends the watch with an error.",
    ],
    examples: ["watch list Groceries", "watch list Groceries --store \"Trader Joe's\" --count 3", "watch list Groceries --for 60"]
  ) { invocation, session in
    let name = invocation.argument("list")
    guard let list = try session.library.lists.find(name) else { throw RepositoryError.notFound(.weeklyList, name) }
    let count = invocation.option("count").flatMap(Int.init)
    let duration = invocation.option("for").flatMap(Double.init)
    guard count != nil || duration != nil || session.interruptRequested != nil else {
      throw invocation.failure("a watch in a script needs --count N or --for SECONDS to end", argument: "watch list")
    }
    if let store = invocation.option("store") { _ = try session.library.stores.aisleOrder(store) }  // an unknown store fails now
    let units = invocation.option("units").flatMap(UnitPreference.init(rawValue:)) ?? session.units
    // The store calls back after each commit that touches what the list reads; the list
    // is read again here, on the command's thread (which owns the stores), never inside
    // the writer's transaction. One flag, however many commits: a burst is shown once.
    let changed = Inbox()
    let subscription = session.library.store.subscribe(to: LiveQueries.shoppingListRegion) { changed.mark() }
    defer { subscription.cancel() }
    changed.mark()  // the first showing: the list as it is now
    let deadline = duration.map { ContinuousClock.now + .milliseconds(Int($0 * 1_000)) }
    var shown = 0
    var last: CommandResult?
    var held: [CommandResult] = []
    func show(_ result: CommandResult) {
      if let showUpdate = session.showUpdate { showUpdate(result) } else { held.append(result) }
    }
    var ending = "stopped"
    while true {
      if changed.take(waiting: tick) {
        let shopping = try session.library.lists.shoppingList(
          list.id.uuidString, units: units, includeDone: invocation.flag("all"), store: invocation.option("store"))
        let showing = CommandResult(parts: ListCommands.parts(of: shopping))
        // A commit that leaves the list as shown (another process's commit elsewhere, whose
        // kinds the store cannot know) shows nothing.
        if showing != last {
          last = showing
          shown += 1
          show(showing)
          if let count, shown >= count {
            ending = "shown \(count) time\(count == 1 ? "" : "s")"
            break
          }
        }
      }
      if let deadline, ContinuousClock.now >= deadline {
        ending = "watched for \(invocation.option("for") ?? "") s"
        break
      }
      if session.interruptRequested?() == true {
        ending = "stopped by Ctrl-C"
        break
      }
      // Live devices sync while the watch waits, as they do at the prompt.
      let notices = session.runLive()
      if !notices.isEmpty { show(CommandResult(parts: notices.map { .message($0) })) }
    }
    let summary = "watch of list '\(list.displayName)' ended: \(ending) after \(shown) showing\(shown == 1 ? "" : "s")"
    return CommandResult(
      parts: held.flatMap(\.parts) + [
        .message(summary), .data(key: "watch", ["list": .string(list.displayName), "shown": .int(shown)]),
      ])
  }

  /// Whether the store changed since the watch last read the list, and a semaphore to
  /// wait for it: one flag, so commits the prompt has not shown yet hold nothing more.
  final class Inbox: Sendable {
    private let changed = Mutex(false)
    private let signal = DispatchSemaphore(value: 0)

    func mark() {
      changed.withLock { $0 = true }
      signal.signal()
    }

    /// Whether a change was marked since the last call (clearing it), waiting up to
    /// `timeout` for one.
    func take(waiting timeout: DispatchTimeInterval) -> Bool {
      if clear() { return true }
      _ = signal.wait(timeout: .now() + timeout)
      return clear()
    }

    private func clear() -> Bool {
      changed.withLock { flag in
        defer { flag = false }
        return flag
      }
    }
  }
}
