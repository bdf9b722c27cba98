import Foundation

/// `~/x` → `$HOME/x`.
func expandHome(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/") else { return path }
  let home = ProcessEnvironment.home
  return home + path.dropFirst()
}
