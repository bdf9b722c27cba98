import Foundation
package import HTTPTypes
package import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// The client a request comes from, as the per-address rate limit counts it
/// (``ServerConfiguration/addressRequestsPerSecond``).
///
/// - The connection's peer address, by default. A server behind a proxy sees only the
///   proxy's address there: give it ``ServerConfiguration/trustForwardedFor`` and it reads
///   the last hop of `X-Forwarded-For` instead — the address the proxy in front of it saw,
///   which the client cannot choose (hops before it can be written by anyone, so they are
///   never read). A last hop that is not an IP address counts as the peer.
/// - An IPv6 client counts by its /64 network, since one host is commonly given a whole /64
///   and could otherwise take a fresh bucket per address; an IPv4 address mapped into IPv6
///   (`::ffff:192.0.2.1`, a dual-stack listener) counts as the IPv4 address.
package enum ClientAddress {
  /// The key a client's requests are counted under, nil when the request has no peer
  /// address (HummingbirdTesting's router client; every TCP connection has one).
  package static func key(peer: SocketAddress?, headers: HTTPFields, trustForwardedFor: Bool) -> String? {
    if trustForwardedFor, let hop = lastForwardedHop(headers), let address = parse(hop) { return key(address) }
    return peer.map(key)
  }

  /// The key of one address.
  package static func key(_ address: SocketAddress) -> String {
    switch address {
    case .v4:
      return address.ipAddress ?? "?"
    case .v6(let v6):
      // `sockaddr_in6` holds its 16 address bytes at offset 8 (after the family, port and
      // flow information, RFC 3493), on Linux and the BSDs alike.
      let bytes = withUnsafeBytes(of: v6.address) { Array($0[8..<24]) }
      if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
        return bytes[12...].map(String.init).joined(separator: ".")
      }
      let groups = stride(from: 0, to: min(8, bytes.count), by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
      return groups.joined(separator: ":") + "::/64"
    case .unixDomainSocket:
      return "unix"
    }
  }

  /// The last comma-separated entry of the last `X-Forwarded-For` field.
  static func lastForwardedHop(_ headers: HTTPFields) -> String? {
    guard let name = HTTPField.Name("X-Forwarded-For") else { return nil }
    let hop = headers[values: name].last?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)
    return hop?.isEmpty == false ? hop : nil
  }

  /// An IP address, written bare, as `[v6]:port` or as `v4:port`; nil for anything else.
  static func parse(_ text: String) -> SocketAddress? {
    var host = Substring(text)
    if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
      host = host[host.index(after: host.startIndex)..<end]
    } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
      host = host[..<colon]
    }
    return try? SocketAddress(ipAddress: String(host), port: 0)
  }
}
