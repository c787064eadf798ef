// Apple backend, UNTESTED here (see BonjourDiscovery.swift).
#if canImport(dnssd)
import Darwin
import Dispatch
import dnssd
import RemotionHostLogic

/// One resolve: DNSServiceResolve (host, port, TXT), then DNSServiceGetAddrInfo (IPv4 + IPv6).
/// Confined to the owner's serial queue (all methods and callbacks run there).
final class ResolveOperation {
    let service: DiscoveredService
    let queue: DispatchQueue
    private var continuation: CheckedContinuation<ResolvedService, any Error>?
    private var resolveRef: DNSServiceRef?
    private var addressRef: DNSServiceRef?
    private var retained: Unmanaged<ResolveOperation>?
    private var partial: ResolvedService?

    static let timeout: DispatchTimeInterval = .seconds(5)
    static let familyGrace: DispatchTimeInterval = .milliseconds(150)

    init(service: DiscoveredService, queue: DispatchQueue) {
        self.service = service
        self.queue = queue
    }

    func start(_ continuation: CheckedContinuation<ResolvedService, any Error>) {
        self.continuation = continuation
        let me = Unmanaged.passRetained(self)
        retained = me
        var ref: DNSServiceRef?
        let code = DNSServiceResolve(&ref, 0, UInt32(bitPattern: service.interfaceIndex), service.name,
                                     service.type.description, service.domain, resolveReply, me.toOpaque())
        guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let ref else {
            finish(.failure(BonjourDiscovery.error(code)))
            return
        }
        resolveRef = ref
        DNSServiceSetDispatchQueue(ref, queue)
        queue.asyncAfter(deadline: .now() + Self.timeout) { [self] in
            if let partial, !partial.addresses.isEmpty { finish(.success(partial)) }
            else { finish(.failure(DiscoveryError.resolveFailed(name: service.name, reason: "timed out"))) }
        }
    }

    func resolved(host: String, port: UInt16, txt: TXTRecord) {
        if let resolveRef { DNSServiceRefDeallocate(resolveRef) }
        resolveRef = nil
        var withTXT = service
        withTXT.txt = txt
        partial = ResolvedService(service: withTXT, hostName: host, port: port, addresses: [], txt: txt)
        var ref: DNSServiceRef?
        let protocols = DNSServiceProtocol(kDNSServiceProtocol_IPv4 | kDNSServiceProtocol_IPv6)
        let code = DNSServiceGetAddrInfo(&ref, 0, UInt32(bitPattern: service.interfaceIndex), protocols, host,
                                         addressReply, retained?.toOpaque())
        guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let ref else {
            finish(.failure(BonjourDiscovery.error(code)))
            return
        }
        addressRef = ref
        DNSServiceSetDispatchQueue(ref, queue)
    }

    func address(_ address: ResolvedAddress, moreComing: Bool) {
        guard partial != nil else { return }
        if !partial!.addresses.contains(address) { partial!.addresses.append(address) }
        partial!.addresses.sort { $0.family == .ipv4 && $1.family == .ipv6 }
        if !moreComing {
            queue.asyncAfter(deadline: .now() + Self.familyGrace) { [self] in
                if let partial { finish(.success(partial)) }
            }
        }
    }

    func finish(_ result: Result<ResolvedService, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        if let resolveRef { DNSServiceRefDeallocate(resolveRef) }
        if let addressRef { DNSServiceRefDeallocate(addressRef) }
        resolveRef = nil
        addressRef = nil
        continuation.resume(with: result)
        retained?.release()
        retained = nil
    }
}

private let resolveReply: DNSServiceResolveReply = { _, _, _, errorCode, _, host, port, txtLength, txt, context in
    guard let context else { return }
    let operation = Unmanaged<ResolveOperation>.fromOpaque(context).takeUnretainedValue()
    guard errorCode == DNSServiceErrorType(kDNSServiceErr_NoError), let host else {
        operation.finish(.failure(BonjourDiscovery.error(errorCode)))
        return
    }
    let bytes = txt.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(txtLength))) } ?? []
    operation.resolved(host: String(cString: host), port: UInt16(bigEndian: port), txt: TXTRecord(wireBytes: bytes))
}

private let addressReply: DNSServiceGetAddrInfoReply = { _, flags, interface, errorCode, _, address, _, context in
    guard let context, errorCode == DNSServiceErrorType(kDNSServiceErr_NoError), let address else { return }
    let operation = Unmanaged<ResolveOperation>.fromOpaque(context).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6)
        ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return }
    var text = String(cString: buffer)
    if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) } // scope kept as index below
    let family: AddressFamily = address.pointee.sa_family == sa_family_t(AF_INET6) ? .ipv6 : .ipv4
    let moreComing = flags & DNSServiceFlags(kDNSServiceFlagsMoreComing) != 0
    operation.address(ResolvedAddress(address: text, family: family, interfaceIndex: Int32(bitPattern: interface)),
                      moreComing: moreComing)
}
#endif
