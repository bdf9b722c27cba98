import Foundation
import ServerTestSupport
import SyncPostgres
import SyncServer
import SyncServerMemory
import SyncWire
import Testing

/// A page holds no more batches than fit in its byte budget — but always its first — on both
/// backends, and the pages after it carry on without a gap.
@Suite struct PageBytesTests {
  static func checkPagesStopAtTheirByteBudget(_ storage: any HouseholdStorage) async throws {
    let phone = try #require(try await household(storage, devices: ["phone"])["phone"])
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    // Sizes 1000, 2000, …, 6000 bytes of payload (plus the id's few bytes each).
    for number in 1...6 {
      _ = try await storage.append(
        batch("a:\(number)", replica: "a", bytes: number * 1_000), from: phone, deviceSequence: Int64(number), now: now)
    }
    let sizes = try await storage.page(of: phone.householdID, after: 0, limit: 10).entries.map(\.batch.count)
    #expect(sizes.count == 6)
    let household = phone.householdID
    // 1 + 2 fit in 3,100 bytes; 3 would not.
    let first = try await storage.page(of: household, after: 0, limit: 10, maxBytes: sizes[0] + sizes[1] + 5)
    #expect(first.entries.map(\.sequence) == [1, 2] && first.latestSequence == 6)
    // A batch larger than the budget comes alone.
    let alone = try await storage.page(of: household, after: 2, limit: 10, maxBytes: 100)
    #expect(alone.entries.map(\.sequence) == [3])
    #expect(alone.entries.first?.batch == batch("a:3", replica: "a", bytes: 3_000).bytes)
    // The count limit still holds when the bytes would allow more.
    #expect(try await storage.page(of: household, after: 3, limit: 2, maxBytes: 1 << 20).entries.map(\.sequence) == [4, 5])
    // Followed page by page, every batch once and in order.
    var after: Int64 = 0
    var delivered: [Int64] = []
    while true {
      let page = try await storage.page(of: household, after: after, limit: 10, maxBytes: 7_000)
      guard let last = page.entries.last else { break }
      #expect(page.entries.reduce(0) { $0 + $1.batch.count } <= 7_000 || page.entries.count == 1)
      delivered += page.entries.map(\.sequence)
      after = last.sequence
    }
    #expect(delivered == Array(1...6))
  }

  @Test func pagesStopAtTheirByteBudgetInMemory() async throws {
    try await Self.checkPagesStopAtTheirByteBudget(MemoryHouseholdStorage())
  }

  @Test(.enabled(if: postgresAvailable, "PostgreSQL is not installed"))
  func pagesStopAtTheirByteBudgetOnPostgres() async throws {
    try await withPostgres { _, storage, _ in try await Self.checkPagesStopAtTheirByteBudget(storage) }
  }
}
