import Foundation
import ZIPFoundation

/// One gzip member (RFC 1952), as each entry of a Paprika archive holds.
///
/// ZIPFoundation inflates and deflates raw deflate streams (what a zip entry holds) with
/// the zlib it links, but reads and writes no gzip header; this file adds the 10-byte
/// header and the CRC-32 and size trailer around its raw deflate, so Forager needs no
/// second zlib binding. Decompression is bounded: it stops with ``Failure/tooLarge`` as
/// soon as the output passes the maximum (a gzip bomb never grows past it).
enum Gzip {
  enum Failure: Error, Equatable {
    case notGzip
    case truncated
    case corrupt
    case checksum
    case tooLarge(maximum: Int)
  }

  private static let bufferSize = 64 * 1024
  private static let headerFlags: (text: UInt8, headerCRC: UInt8, extra: UInt8, name: UInt8, comment: UInt8) = (1, 2, 4, 8, 16)

  /// The member's content, at most `maximum` bytes.
  static func decompress(_ data: Data, maximum: Int) throws(Failure) -> Data {
    let bytes = [UInt8](data)
    guard bytes.count >= 18, bytes[0] == 0x1f, bytes[1] == 0x8b, bytes[2] == 8, bytes[3] & 0xE0 == 0 else { throw .notGzip }
    let flags = bytes[3]
    var start = 10
    if flags & headerFlags.extra != 0 {
      guard start + 2 <= bytes.count else { throw .truncated }
      start += 2 + Int(bytes[start]) + Int(bytes[start + 1]) << 8
    }
    for flag in [headerFlags.name, headerFlags.comment] where flags & flag != 0 {
      guard let end = bytes[min(start, bytes.count)...].firstIndex(of: 0) else { throw .truncated }
      start = end + 1
    }
    if flags & headerFlags.headerCRC != 0 { start += 2 }
    guard start + 8 <= bytes.count else { throw .truncated }
    let body = Data(bytes[start..<(bytes.count - 8)])
    let trailer = Array(bytes[(bytes.count - 8)...])
    var output = Data()
    let crc: UInt32
    do {
      crc = try Data.decompress(
        size: Int64(body.count), bufferSize: bufferSize, skipCRC32: false,
        provider: { position, size in
          // ZIPFoundation's Linux inflate takes every chunk as `size` bytes long: pad the
          // last one, and stop a stream that has not ended when the body has.
          let from = Int(position)
          guard from < body.count else { throw Failure.truncated }
          var chunk = body[from..<min(body.count, from + size)]
          if chunk.count < size { chunk.append(Data(count: size - chunk.count)) }
          return Data(chunk)
        },
        consumer: { chunk in
          guard output.count + chunk.count <= maximum else { throw Failure.tooLarge(maximum: maximum) }
          output.append(chunk)
        })
    } catch let failure as Failure {
      throw failure
    } catch {
      throw .corrupt
    }
    let expectedCRC = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
    let expectedSize = UInt32(trailer[4]) | UInt32(trailer[5]) << 8 | UInt32(trailer[6]) << 16 | UInt32(trailer[7]) << 24
    guard crc == expectedCRC, UInt32(truncatingIfNeeded: output.count) == expectedSize else { throw .checksum }
    return output
  }

  /// `data` as one gzip member: no name, no time stamp (the same bytes give the same member).
  static func compress(_ data: Data) throws -> Data {
    var output = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
    let crc = try Data.compress(
      size: Int64(data.count), bufferSize: bufferSize,
      provider: { position, size in
        let from = data.startIndex + Int(position)
        return Data(data[from..<(from + size)])
      },
      consumer: { output.append($0) })
    for value in [crc, UInt32(truncatingIfNeeded: data.count)] {
      output.append(contentsOf: [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)])
    }
    return output
  }
}
