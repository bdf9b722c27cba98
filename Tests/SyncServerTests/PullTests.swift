import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SyncServer
import SyncWire
import Testing

@Suite struct PullTests {
  @Test func pagesFollowTheCursorThroughTheWholeLogInOrder() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      for number in 1...25 {
        _ = try await client.push(batchBytes(id: "a:\(number)", replica: "a"), token: phone, deviceSequence: Int64(number))
      }
      var cursor: String?
      var pages: [[Int64]] = []
      while true {
        let page = try await client.pull(token: phone, cursor: cursor, limit: 10).decode(PullPage.self)
        #expect(page.latestSequence == 25)
        if page.entries.isEmpty {
          #expect(page.cursor == cursor)
          break
        }
        pages.append(page.entries.map(\.sequence))
        cursor = page.cursor
      }
      #expect(pages.map(\.count) == [10, 10, 5])
      #expect(pages.flatMap { $0 } == Array(1...25))
    }
  }

  @Test func aCursorIsOpaqueAndOnlyTheServersOwnAreTaken() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      for cursor in ["42", "bad cursor", "YzEuLTE", "%27%20OR%201%3D1"] {
        let response = try await client.pull(token: phone, cursor: cursor)
        #expect(response.status == .badRequest, "cursor \(cursor)")
        #expect(response.refusal?.code == "cursor-invalid")
      }
      #expect(PullCursor(encoded: PullCursor(after: 7).encoded)?.sequence == 7)
      #expect(PullCursor(encoded: "YzEuLTE") == nil)  // "c1.-1"
    }
  }

  @Test func aLimitOutsideTheServersRangeIsRefused() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      for limit in [0, 51, -3] {
        let response = try await client.pull(token: phone, limit: limit)
        #expect(response.status == .badRequest)
        #expect(response.refusal?.message == "limit must be a whole number from 1 to 50")
      }
    }
  }
}
