extension Administration {
  /// Compacts a household's log now (``LogCompactor``): makes its snapshot when due, then
  /// drops the batches `LogCompaction` lets go and the snapshots below the new floor; with
  /// `dryRun`, makes nothing and drops nothing, and says what it would drop.
  /// - Throws: ``ServerError`` for an unknown household; `compaction-needs-snapshots` when
  ///   the storage keeps no snapshots. Nothing is dropped then.
  public func compactHousehold(_ name: String, dryRun: Bool) async throws -> HouseholdCompaction {
    let record = try await requireHousehold(name)
    guard let storage = storage as? any HouseholdStorage & SnapshotStore else {
      throw ServerError.badRequest("compaction-needs-snapshots", "this storage keeps no snapshots, so it compacts nothing")
    }
    return try await LogCompactor(storage: storage, configuration: configuration).compact(record.id, dryRun: dryRun)
  }
}
