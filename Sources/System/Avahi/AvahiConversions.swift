#if os(Linux)
import CAvahi
import RemotionHostLogic

func avahiErrorText(_ code: Int32) -> String {
    String(cString: avahi_strerror(code))
}

/// Builds an AvahiStringList in the given order (avahi_string_list_add prepends).
/// The caller frees it with avahi_string_list_free.
func makeStringList(_ strings: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
    var list: UnsafeMutablePointer<AvahiStringList>? = nil
    for string in strings.reversed() {
        list = avahi_string_list_add(list, string)
    }
    return list
}

/// Reads the TXT strings of an AvahiStringList (bytes decoded as UTF-8, invalid bytes replaced).
func readStringList(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String] {
    var strings: [String] = []
    var node = list
    while let current = node {
        let size = avahi_string_list_get_size(current)
        if let text = avahi_string_list_get_text(current) {
            strings.append(String(decoding: UnsafeBufferPointer(start: text, count: size), as: UTF8.self))
        }
        node = avahi_string_list_get_next(current)
    }
    return strings
}

func addressFamily(_ protocolValue: AvahiProtocol) -> AddressFamily {
    protocolValue == protoINET6 ? .ipv6 : .ipv4
}

func avahiProtocol(_ family: AddressFamily) -> AvahiProtocol {
    family == .ipv6 ? protoINET6 : protoINET
}

func resolvedAddress(_ address: UnsafePointer<AvahiAddress>, interface: AvahiIfIndex) -> ResolvedAddress {
    var buffer = [CChar](repeating: 0, count: 64)
    let text = buffer.withUnsafeMutableBufferPointer { pointer -> String in
        avahi_address_snprint(pointer.baseAddress, pointer.count, address)
        return String(cString: pointer.baseAddress!)
    }
    return ResolvedAddress(address: text, family: addressFamily(address.pointee.proto),
                           interfaceIndex: interface)
}

func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
#endif

#if os(Linux)
// avahi's anonymous enums import as Int constants; typed copies for the C calls.
let protoINET = AvahiProtocol(AVAHI_PROTO_INET)
let protoINET6 = AvahiProtocol(AVAHI_PROTO_INET6)
let protoUNSPEC = AvahiProtocol(AVAHI_PROTO_UNSPEC)
let ifUNSPEC = AvahiIfIndex(AVAHI_IF_UNSPEC)
#endif
