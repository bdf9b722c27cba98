import Foundation

/// The few facts about the running process the language needs.
enum ProcessEnvironment {
  static var home: String {
    ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
  }
}
