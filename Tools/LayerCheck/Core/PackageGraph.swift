public import Foundation

/// The targets of a package and what each depends on, read from
/// `swift package dump-package` (or the same shape written by the `check-layers` plugin).
public struct PackageGraph: Sendable, Equatable {
  public struct Target: Sendable, Equatable {
    public var name: String
    /// `regular`, `executable`, `test`, `system`, `plugin`, `macro`, `binary`.
    public var type: String
    /// The directory as written in the manifest (relative to the package root), or absolute.
    public var path: String?
    public var dependencies: [Dependency]

    public init(name: String, type: String = "regular", path: String? = nil, dependencies: [Dependency] = []) {
      self.name = name
      self.type = type
      self.path = path
      self.dependencies = dependencies
    }

    public var isTest: Bool { type == "test" }
  }

  /// A dependency as the manifest spells it.
  public enum Dependency: Sendable, Hashable {
    /// `.target(name:)`.
    case target(String)
    /// `.product(name:package:)`.
    case product(String, package: String?)
    /// A bare string: a local target if the package has one of that name, else a product.
    case byName(String)
  }

  public var targets: [Target]

  public init(targets: [Target]) {
    self.targets = targets
  }

  /// Decodes `swift package dump-package` output.
  ///
  /// - Throws: `LayerCheckError.malformedPackage` when the JSON has no targets list.
  public static func decode(dumpPackage data: Data) throws -> PackageGraph {
    let json: Any
    do {
      json = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw LayerCheckError.malformedPackage("not JSON (\(error.localizedDescription))")
    }
    guard let root = json as? [String: Any], let targets = root["targets"] as? [[String: Any]] else {
      throw LayerCheckError.malformedPackage("no \"targets\" array")
    }
    return PackageGraph(
      targets: try targets.map { target in
        guard let name = target["name"] as? String else {
          throw LayerCheckError.malformedPackage("a target without a name")
        }
        let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap(Self.dependency)
        return Target(
          name: name,
          type: target["type"] as? String ?? "regular",
          path: target["path"] as? String,
          dependencies: dependencies
        )
      }
    )
  }

  private static func dependency(_ json: [String: Any]) -> Dependency? {
    if let name = (json["byName"] as? [Any])?.first as? String {
      return .byName(name)
    }
    if let name = (json["target"] as? [Any])?.first as? String {
      return .target(name)
    }
    if let fields = json["product"] as? [Any], let name = fields.first as? String {
      return .product(name, package: fields.dropFirst().first as? String)
    }
    return nil
  }

  /// The target named `name`, if any.
  public func target(named name: String) -> Target? {
    targets.first { $0.name == name }
  }
}
