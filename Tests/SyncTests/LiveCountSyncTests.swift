import Foundation
import Model
import Persistence
import Repositories
import Sync
import TestSupport
import Testing

/// Changes that arrive by sync — creations, deletions, merges of records two devices gave
/// one name — keep each SQLite store's live-record counter equal to its rows.
@Suite("Live-record counts after sync")
struct LiveCountSyncTests {
  @Test func countersMatchTheRowsAfterSyncedCreatesDeletesAndMerges() throws {
    let world = try SyncWorld(.sqlite, devices: ["a", "b"])
    let a = world["a"].library, b = world["b"].library
    _ = try a.categories.getOrCreate("Produce")
    _ = try a.recipes.create(RecipeDraft(name: "Soup", ingredients: ["2 carrots", "1 onion"]))
    _ = try b.categories.getOrCreate("Produce")  // the same record (a name-based id)
    _ = try b.categories.getOrCreate("Herbs")
    _ = try b.recipes.create(RecipeDraft(name: "Stew", ingredients: ["1 potato"]))
    try world.syncUntilQuiet()

    // Offline: a creates "Spices" and b renames "Herbs" to it (two records, merged once
    // both have synced); a deletes a recipe and its lines; b deletes a category.
    _ = try a.categories.getOrCreate("Spices")
    _ = try b.categories.rename("Herbs", to: "Spices")
    _ = try a.recipes.delete("Stew")
    _ = try b.categories.delete("Produce")
    try world.syncUntilQuiet()

    for device in world.devices {
      #expect(try device.store.liveCountMismatches() == [], "\(device.name)")
    }
    #expect(try a.counts() == b.counts())
    #expect(try a.counts()[.category] == 1)
    #expect(try a.counts()[.recipe] == 1)
  }
}
