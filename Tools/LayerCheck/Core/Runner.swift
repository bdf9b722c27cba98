/// The checks as the command line and the plugins run them, from paths on disk.
public enum Runner {
  /// Reads the vocabulary and refuses an empty one, which would mean the check was
  /// pointed at the wrong directories and would silently pass everything.
  ///
  /// - Throws: `LayerCheckError` when a directory is missing, no entity types or no
  ///   `StoreWriter` methods were found.
  public static func vocabulary(
    model: [String],
    persistence: [String],
    repositories: [String] = []
  ) throws -> Vocabulary {
    let vocabulary = Vocabulary.scan(
      model: try SourceFile.readAll(model),
      persistence: try SourceFile.readAll(persistence),
      repositories: try SourceFile.readAll(repositories)
    )
    guard !vocabulary.entityTypes.isEmpty else {
      throw LayerCheckError.noEntityTypes(model.joined(separator: ", "))
    }
    guard !vocabulary.writerMethods.isEmpty else {
      throw LayerCheckError.noStoreWriter(persistence.joined(separator: ", "))
    }
    return vocabulary
  }

  /// The imports of every target in `graph` that the table restricts (modules, front ends,
  /// tools), each against its own entry.
  ///
  /// - Parameter root: the package directory that relative target paths start from.
  /// - Throws: `LayerCheckError` when a target's directory cannot be read.
  public static func checkImports(of graph: PackageGraph, root: String, table: LayerTable) throws -> [LayerDiagnostic] {
    var violations: [LayerDiagnostic] = []
    for entry in table.entries where entry.targets != nil && graph.target(named: entry.name)?.isTest == false {
      let files = try SourceFile.readAll(directory(of: entry.name, in: graph, root: root))
      violations += ImportCheck(table: table).run(files, target: entry.name)
    }
    return violations
  }

  /// The local dependencies that targets of `graph` declare and none of their files
  /// imports (``UnusedEdgeCheck``), for every target the check applies to.
  ///
  /// - Parameter root: the package directory that relative target paths start from.
  /// - Throws: `LayerCheckError` when a target's directory cannot be read.
  public static func checkDeclaredEdges(of graph: PackageGraph, root: String) throws -> [LayerDiagnostic] {
    var violations: [LayerDiagnostic] = []
    for target in graph.targets where UnusedEdgeCheck.checkedTypes.contains(target.type) && !target.dependencies.isEmpty {
      let files = try SourceFile.readAll(directory(of: target.name, in: graph, root: root))
      violations += UnusedEdgeCheck().run(files, target: target, in: graph)
    }
    return violations
  }

  /// The import findings the front-end check has not already made: both checks read a
  /// front end's imports, and a line should be reported once.
  public static func importFindings(_ imports: [LayerDiagnostic], notIn sources: SourceReport?) -> [LayerDiagnostic] {
    guard let sources else { return imports }
    let reported = Set(sources.violations.map(\.description))
    return imports.filter { !reported.contains($0.description) }
  }

  /// The source directory of the graph's target of that name (none when it has no such
  /// target), relative paths taken from `root`.
  static func directory(of name: String, in graph: PackageGraph, root: String) -> [String] {
    guard let target = graph.target(named: name) else { return [] }
    let path = target.path ?? (target.isTest ? "Tests/\(name)" : "Sources/\(name)")
    return [path.hasPrefix("/") ? path : root + "/" + path]
  }

  /// Checks the sources of every front-end target (per the table) present in `graph`,
  /// reading Model, Persistence and Repositories from the graph's targets of those names.
  ///
  /// - Parameter root: the package directory that relative target paths start from.
  /// - Throws: `LayerCheckError` as `vocabulary(model:persistence:repositories:)`.
  public static func checkFrontEnds(of graph: PackageGraph, root: String, table: LayerTable) throws -> SourceReport {
    func directory(_ name: String) -> [String] { Runner.directory(of: name, in: graph, root: root) }
    let vocabulary = try vocabulary(
      model: directory("Model"),
      persistence: directory("Persistence"),
      repositories: directory("Repositories")
    )
    let files = try SourceFile.readAll(table.frontEnds.flatMap(directory))
    var report = FrontEndCheck(vocabulary: vocabulary).run(files)
    for frontEnd in table.frontEnds {
      report.violations += ImportCheck(table: table).run(try SourceFile.readAll(directory(frontEnd)), frontEnd: frontEnd)
    }
    return report
  }
}
