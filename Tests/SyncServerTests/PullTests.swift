import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SyncServer
import SyncServerMemory
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
      for text in ["c1.007", "c2.5.not-a-uuid", "c2.5", "c3.5", "c1.5.x"] {
        #expect(PullCursor(encoded: Base64URL.encode(Data(text.utf8))) == nil, "\(text)")
      }
    }
  }

  @Test func aCursorIsBoundToItsHouseholdsLog() async throws {
    let fixture = ServerFixture()
    let smith = try await fixture.token("Smith")
    let jones = try await fixture.token("Jones")
    try await fixture.test { client in
      _ = try await client.push(batchBytes(id: "a:1", replica: "a"), token: smith, deviceSequence: 1)
      let page = try await client.pull(token: smith).decode(PullPage.self)
      let cursor = try #require(PullCursor(encoded: page.cursor))
      let log = try #require(await fixture.storage.household(named: "Smith")).identifier
      #expect(cursor.sequence == 1 && cursor.log == log)
      // Smith's cursor in Jones's household: refused, not read as a place in Jones's log.
      let other = try await client.pull(token: jones, cursor: page.cursor)
      #expect(other.status == .conflict && other.refusal?.code == "cursor-other-log")
      #expect(other.refusal?.message.contains("not to this household's log") == true)
      // A cursor of an earlier server, without a log, is still read.
      #expect(try await client.pull(token: smith, cursor: PullCursor(after: 1).encoded).status == .ok)
    }
  }

  @Test func aCursorPastTheLogsEndIsAnsweredWithTheLogsRealEnd() async throws {
    let fixture = ServerFixture()
    let phone = try await fixture.token()
    try await fixture.test { client in
      for number in 1...3 {
        _ = try await client.push(batchBytes(id: "a:\(number)", replica: "a"), token: phone, deviceSequence: Int64(number))
      }
      // A device that pulled up to 7 before the server's database was restored to 3.
      let ahead = try await client.pull(token: phone, cursor: PullCursor(after: 7).encoded)
      #expect(ahead.status == .conflict)
      #expect(ahead.refusal?.code == "cursor-ahead")
      #expect(ahead.refusal?.latestSequence == 3)
      #expect(ahead.refusal?.message.contains("the cursor is at sequence 7 but the household's log ends at 3") == true)
      // At the end and before it, the page says where the log really ends.
      let atEnd = try await client.pull(token: phone, cursor: PullCursor(after: 3).encoded).decode(PullPage.self)
      #expect(atEnd.entries.isEmpty && atEnd.latestSequence == 3)
      let page = try await client.pull(token: phone, cursor: PullCursor(after: 1).encoded).decode(PullPage.self)
      #expect(page.entries.map(\.sequence) == [2, 3] && page.latestSequence == 3)
    }
  }

  @Test func aPageEndsAtTheByteBudgetSaysSoAndTheNextPagesCarryOn() async throws {
    let size = batchBytes(id: "a:1", replica: "a").count
    let fixture = ServerFixture(maxPageBytes: size * 3 + 10)
    let phone = try await fixture.token()
    try await fixture.test { client in
      for number in 1...8 {
        _ = try await client.push(batchBytes(id: "a:\(number)", replica: "a"), token: phone, deviceSequence: Int64(number))
      }
      var cursor: String?
      var pages: [[Int64]] = []
      var ended: [Bool] = []
      while true {
        let response = try await client.pull(token: phone, cursor: cursor, limit: 50)
        #expect(response.headers[.contentLength] == String(response.body.readableBytes))
        let page = try response.decode(PullPage.self)
        guard !page.entries.isEmpty else { break }
        pages.append(page.entries.map(\.sequence))
        ended.append(page.endedAtByteLimit)
        cursor = page.cursor
      }
      #expect(pages == [[1, 2, 3], [4, 5, 6], [7, 8]])
      #expect(ended == [true, true, false])
      // A page that stops at its count is not one that ended early.
      #expect(try await client.pull(token: phone, limit: 2).decode(PullPage.self).endedAtByteLimit == false)
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
