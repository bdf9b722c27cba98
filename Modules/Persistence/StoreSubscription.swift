import Synchronization

/// A registration for commit notices made by ``Store/subscribe(to:onCommit:)``: the
/// notices stop when it is cancelled or released.
public final class StoreSubscription: Sendable {
  private let cancellation: Mutex<(@Sendable () -> Void)?>

  /// A subscription that runs `cancel` once, on ``cancel()`` or when released.
  public init(cancel: @escaping @Sendable () -> Void) {
    cancellation = Mutex(cancel)
  }

  /// Stops the notices. Calling it again does nothing.
  public func cancel() {
    let cancel = cancellation.withLock { taken -> (@Sendable () -> Void)? in
      defer { taken = nil }
      return taken
    }
    cancel?()
  }

  deinit { cancel() }
}

/// The subscribers of one store and the regions they watch; a backend calls
/// ``notify(_:)`` after each commit, outside its transaction.
package final class CommitBroadcaster: Sendable {
  private struct Subscriber: Sendable {
    let region: StoreRegion
    let onCommit: @Sendable () -> Void
  }

  private let subscribers = Mutex<(next: Int, all: [Int: Subscriber])>((0, [:]))
  /// Called with the number of subscribers after each change to it (the SQLite backend
  /// starts and stops its poller there).
  private let countChanged: (@Sendable (Int) -> Void)?

  package init(countChanged: (@Sendable (Int) -> Void)? = nil) {
    self.countChanged = countChanged
  }

  /// How many subscriptions are live.
  package var count: Int { subscribers.withLock { $0.all.count } }

  /// Adds a subscriber; releasing or cancelling the result removes it.
  package func subscribe(to region: StoreRegion, onCommit: @escaping @Sendable () -> Void) -> StoreSubscription {
    let (id, count) = subscribers.withLock { state -> (Int, Int) in
      let id = state.next
      state.next += 1
      state.all[id] = Subscriber(region: region, onCommit: onCommit)
      return (id, state.all.count)
    }
    countChanged?(count)
    return StoreSubscription { [weak self] in
      guard let self else { return }
      let count = self.subscribers.withLock { state -> Int in
        state.all[id] = nil
        return state.all.count
      }
      self.countChanged?(count)
    }
  }

  /// Calls every subscriber whose region `changed` intersects. Call it after the commit,
  /// never inside the transaction: subscribers read the store again.
  package func notify(_ changed: StoreRegion) {
    guard !changed.isEmpty else { return }
    let woken = subscribers.withLock { state in state.all.values.filter { $0.region.intersects(changed) }.map(\.onCommit) }
    for onCommit in woken { onCommit() }
  }
}
