/// A 64-bit FNV-1a hash, for content-made batch ids.
struct FNV1a {
  private var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01B3
    }
  }

  var hex: String { String(value, radix: 16) }
}
