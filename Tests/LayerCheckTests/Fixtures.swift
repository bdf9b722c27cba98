import Foundation
import LayerCheckCore

/// The files under `Fixtures/` (excluded from the target: they are read, not compiled).
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

  static func path(_ relative: String) -> String {
    directory.appending(path: relative).path(percentEncoded: false)
  }

  /// The vocabulary of the stand-in Model, Persistence and Repositories modules.
  static func vocabulary() throws -> Vocabulary {
    try Runner.vocabulary(
      model: [path("Model")],
      persistence: [path("Persistence")],
      repositories: [path("Repositories")]
    )
  }

  /// Checks one file under `Fixtures/FrontEnd` as front-end code.
  static func checkFrontEnd(_ name: String) throws -> SourceReport {
    FrontEndCheck(vocabulary: try vocabulary()).run([try SourceFile.read(path("FrontEnd/\(name)"))])
  }

  static func packageGraph(_ name: String) throws -> PackageGraph {
    let data = try Data(contentsOf: directory.appending(path: "Package/\(name)"))
    return try PackageGraph.decode(dumpPackage: data)
  }
}

extension LayerDiagnostic {
  /// `line:column`, for comparing positions.
  var position: String {
    "\(line ?? 0):\(column ?? 0)"
  }
}
