import Foundation
import Model
import Testing

@testable import Persistence

/// Backends that sort in memory order ids by their lowercase text, as SQLite orders the
/// `id` column; `sortsBeforeAsText` compares the bytes instead of building the texts.
@Suite("Id text order")
struct IDTextOrderTests {
  /// An id with `bytes` in its first places and zeros after.
  static func id(_ bytes: [UInt8]) -> UUID {
    var all = bytes + [UInt8](repeating: 0, count: 16 - bytes.count)
    return all.withUnsafeMutableBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func agreesWithTheLowercaseTextOrder(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    // Ids that share long prefixes, digits against letters, and equal ids.
    let pool: [UInt8] = [0x00, 0x09, 0x0a, 0x90, 0x9f, 0xa0, 0xaf, 0xff]
    let ids = (0..<200).map { _ in
      Self.id(
        (0..<16).map { _ in Bool.random(using: &random) ? pool.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random) })
    }
    for a in ids {
      for b in ids.prefix(50) {
        #expect(a.sortsBeforeAsText(b) == (a.lowercaseText < b.lowercaseText), "\(a) against \(b)")
      }
      #expect(!a.sortsBeforeAsText(a))
    }
  }

  @Test func readsEveryByte() {
    // Ids that differ only in their last byte: a comparison that stops early says equal.
    #expect(Self.id([UInt8](repeating: 1, count: 15) + [1]).sortsBeforeAsText(Self.id([UInt8](repeating: 1, count: 15) + [2])))
    #expect(!Self.id([UInt8](repeating: 1, count: 15) + [2]).sortsBeforeAsText(Self.id([UInt8](repeating: 1, count: 15) + [1])))
  }
}
