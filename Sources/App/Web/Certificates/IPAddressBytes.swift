import RemotionHostLogic
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// IP addresses as the 4 or 16 bytes an X.509 iPAddress name holds (RFC 5280 §4.2.1.6).
package enum IPAddressBytes {
    /// "192.168.1.20" → 4 bytes, "fe80::1%en0" → 16 bytes (the zone is dropped), else nil.
    package static func parse(_ text: String) -> [UInt8]? {
        var address = text.trimmingSpaces
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        if let percent = address.firstIndex(of: "%") { address = String(address[..<percent]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// The canonical text of 4 or 16 address bytes ("::1", "192.168.1.20"), else hex.
    package static func format(_ bytes: some Collection<UInt8>) -> String {
        let raw = Array(bytes)
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family: Int32
        switch raw.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return raw.map { String($0, radix: 16) }.joined(separator: ":")
        }
        let ok = raw.withUnsafeBytes { src in
            inet_ntop(family, src.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return raw.map { String($0, radix: 16) }.joined(separator: ":") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
