import Testing

@testable import Sync

/// The view's shortcuts are checked in debug builds always and in release builds on request.
@Suite("Shortcut checks")
struct ShortcutChecksTests {
  @Test func releaseBuildsCheckOnlyWhenAskedAndDebugBuildsAlways() {
    #expect(!ShortcutChecks.isEnabled(environment: [:], debug: false))
    #expect(!ShortcutChecks.isEnabled(environment: ["FORAGER_SYNC_CHECKS": "0"], debug: false))
    #expect(ShortcutChecks.isEnabled(environment: ["FORAGER_SYNC_CHECKS": "1"], debug: false))
    #expect(ShortcutChecks.isEnabled(environment: [:], debug: true))
  }

  @Test func aShortcutThatDisagreesStopsTheSyncWithWhatDisagreed() throws {
    try #require(ShortcutChecks.enabled, "test builds are debug builds")
    #expect(throws: SyncViewError.shortcutDisagrees("category x taken as alone")) {
      try ShortcutChecks.check(false, "category x taken as alone")
    }
    try ShortcutChecks.check(true, "never reported")
  }
}
