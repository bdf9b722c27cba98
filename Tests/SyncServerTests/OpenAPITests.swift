import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SyncServer
import SyncWire
import Testing

/// Docs/openapi.yaml is kept true: its paths and methods are exactly the server's routes,
/// and each of them is answered by the router (not 404).
@Suite struct OpenAPITests {
  static let documentURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Docs/openapi.yaml")

  /// "METHOD /path" for every operation under `paths:` (two-space-indented paths, their
  /// four-space-indented methods).
  static func documentedOperations(_ text: String) -> Set<String> {
    var operations: Set<String> = []
    var inPaths = false
    var path: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if !line.hasPrefix(" ") { inPaths = line == "paths:" }
      guard inPaths else { continue }
      if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
        path = String(line.dropFirst(2).dropLast())
      } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), let path {
        let method = line.trimmingCharacters(in: .whitespaces).dropLast()
        if ["get", "put", "post", "delete", "patch", "head", "options"].contains(String(method)) {
          operations.insert("\(method.uppercased()) \(path)")
        }
      }
    }
    return operations
  }

  @Test func theDocumentListsExactlyTheServersRoutes() throws {
    let text = try String(contentsOf: Self.documentURL, encoding: .utf8)
    let documented = Self.documentedOperations(text)
    let served = Set(SyncService.routes.map(\.description))
    #expect(!served.isEmpty)
    #expect(served.count == SyncService.routes.count, "a route is listed twice")
    #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
    #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
  }

  @Test func theReaderFindsAMissingOrExtraOperation() {
    let text = """
      paths:
        /v1/health:
          get:
            summary: x
        /v1/extra:
          delete:
            responses: {}
      components:
        /v1/ignored:
          get:
      """
    #expect(Self.documentedOperations(text) == ["GET /v1/health", "DELETE /v1/extra"])
  }

  @Test func theRouteTableSaysWhichRoutesAreProbesAndWhichSkipTheAddressLimit() {
    let probes = SyncService.routes.filter(\.isProbe).map(\.description)
    #expect(probes == ["GET \(Wire.Path.health)", "GET \(Wire.Path.ready)"])
    let unlimited = SyncService.routes.filter { !$0.isLimitedByAddress }.map(\.description)
    #expect(unlimited == ["GET \(Wire.Path.health)"])
  }

  @Test func everyRouteIsAnsweredAndOthersAreNot() async throws {
    let fixture = ServerFixture()
    try await fixture.test { client in
      for route in SyncService.routes {
        let response = try await client.execute(uri: route.path, method: route.method)
        #expect(response.status != .notFound, "\(route)")
        #expect(response.status == (route.isProbe ? .ok : .unauthorized), "\(route)")
      }
      #expect(try await client.execute(uri: "/v1/households", method: .get).status == .notFound)
      #expect(try await client.execute(uri: "/v2/batches", method: .get).status == .notFound)
    }
  }
}
