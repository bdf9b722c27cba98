/// One page of the cloud's log, fetched on another thread while this one does other
/// work: the stamping before the first page, the join of the page before each next one.
///
/// What the cloud answers for a position does not depend on what the device writes in the
/// meantime, so fetching ahead changes no result, only when the waiting happens (a page
/// from a server is a round trip; from a file, a read and a decode). The engine uses a
/// fetched page only when its position is still the store's token.
struct PageFetch {
  /// The position the page follows.
  let after: Int64
  private let task: BackgroundTask<[CloudEntry]>

  init(_ cloud: any CloudStore, after: Int64, limit: Int) {
    self.after = after
    task = BackgroundTask { try cloud.pull(after: after, limit: limit) }
  }

  /// Waits for the page; throws what the cloud threw.
  func entries() throws -> [CloudEntry] { try task.value() }

  /// Waits for the fetch to end and drops what it brought.
  func discard() { task.wait() }
}
