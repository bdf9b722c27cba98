import Foundation
/// Sync between the session's devices through ``Session/cloud``: `sync`, `sync all`,
/// `device offline/online`, `sync status`.
///
/// Reserved for issue 5: its commands go in this file's `commands` list; the registry
/// already includes the group.
enum SyncCommands {
  static let group = CommandGroup("sync", summary: "Sync", commands: [])
}
