/// A cloud refused a push because another replica's batch holds its id.
///
/// A batch's id is `<replica>:<first>-<last>` (or `<replica>:edges-<hash>`), so a batch
/// with this id from another replica is a squatter: a store copied from this device, or a
/// device that forged this device's id. Counting the push as stored would lose its changes
/// without a word, so the file and in-memory clouds refuse it instead: the pushing sync
/// fails with this error, and its changes stay in its store and outbox, pushed again by
/// the next sync (a batch with a later change in it has another id).
public struct BatchIDTaken: Error, Sendable, Hashable, CustomStringConvertible {
  /// The cloud, as its location names it.
  public let location: String
  /// The id both batches carry.
  public let batchID: String
  /// The replica of the batch the cloud holds under the id.
  public let owner: String
  /// The replica of the batch that was refused.
  public let pusher: String

  /// The refusal of `pusher`'s batch `batchID`, which `owner` pushed first to `location`.
  public init(location: String, batchID: String, owner: String, pusher: String) {
    self.location = location
    self.batchID = batchID
    self.owner = owner
    self.pusher = pusher
  }

  /// A message naming the batch id and both replicas.
  public var description: String {
    "cloud \(location) already holds batch id '\(batchID)' from replica '\(owner)', not from '\(pusher)': "
      + "the batch was not stored and its changes stay on this device"
  }
}
