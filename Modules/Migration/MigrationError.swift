/// Why a migration did not reach its target, written for the person at the prompt.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// There is no file at the path.
  case noStore(path: String)
  /// The file is a SQLite database but not a Forager store.
  case notForager(path: String)
  /// The file was written by a newer Forager.
  case tooNew(path: String, version: Int)
  /// The target version is not one this build can migrate to.
  case badTarget(requested: Int, from: Int)
  /// Stage B found live records without a key, or duplicates; the store stays at v2.
  /// - Parameters:
  ///   - backupPath: the copy of the file made before the migration started, if any.
  case stageBRefused(path: String, refusal: StageBRefusal, backupPath: String?)
  /// A stage failed; its transaction was rolled back, so the store is at `version`.
  case failed(path: String, stage: String, version: Int, reason: String)

  public var description: String {
    switch self {
    case .noStore(let path): return "no store at \(path)"
    case .notForager(let path): return "\(path) is a SQLite database but not a Forager store; nothing was changed"
    case .tooNew(let path, let version):
      return "\(path) has schema v\(version), written by a newer Forager (this build migrates up to v\(StoreMigrator.currentVersion))"
    case .badTarget(let requested, let from):
      return "cannot migrate from v\(from) to v\(requested): the target must be 2 or 3 and not below the store's version"
    case .stageBRefused(let path, let refusal, let backupPath):
      return
        (["\(path) stays at schema v2: stage B (unique constraints) refused because of these records:"]
        + refusal.lines.map { "  " + $0 }
        + [
          "Give blank records a name with `migrate --name-unnamed` (or restore the backup and fix them in the old app), then run `migrate` again."
        ]
        + (backupPath.map { ["The original file is at \($0)."] } ?? []))
        .joined(separator: "\n")
    case .failed(let path, let stage, let version, let reason):
      return "\(stage) failed on \(path) and was rolled back; the store is still at schema v\(version): \(reason)"
    }
  }
}
