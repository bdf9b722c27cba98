import Foundation

/// The view's shortcuts (`ViewUpdater.showsAsWritten`, a record taken as its component
/// alone) checked against the full computation they skip. Debug builds always check;
/// a release build checks when `FORAGER_SYNC_CHECKS=1` is set, e.g. while chasing a
/// divergence on a user's machine. A shortcut that disagrees stops the sync with
/// ``SyncViewError/shortcutDisagrees(_:)``: its transaction rolls back.
enum ShortcutChecks {
  /// Whether this process checks.
  static let enabled = isEnabled(environment: ProcessInfo.processInfo.environment, debug: isDebugBuild)

  static func isEnabled(environment: [String: String], debug: Bool) -> Bool {
    debug || environment["FORAGER_SYNC_CHECKS"] == "1"
  }

  static var isDebugBuild: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// Throws when checks are on and `holds` is false.
  static func check(_ holds: @autoclosure () -> Bool, _ what: @autoclosure () -> String) throws {
    guard enabled, !holds() else { return }
    throw SyncViewError.shortcutDisagrees(what())
  }
}
