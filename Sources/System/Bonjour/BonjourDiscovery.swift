// Apple backend (Bonjour, dns_sd). UNTESTED: this project is built and tested on Linux only so
// far; this file compiles to nothing there. Review and test on macOS before relying on it.
#if canImport(dnssd)
import Darwin
import Dispatch
import dnssd
import RemotionHostLogic

/// DNS-SD through mDNSResponder. Same contract as `AvahiDiscovery`.
///
/// Why `@unchecked Sendable` is sound: every mutable stored property (`nextID`, `registrations`,
/// `browses`, and the state of `ResolveOperation`) is read and written only on `queue`, a serial
/// queue: public methods hop onto it with `queue.async`/`queue.sync`, and every DNSServiceRef is
/// bound to it with DNSServiceSetDispatchQueue, so dns_sd delivers all callbacks there.
package final class BonjourDiscovery: ServiceBrowser, ServicePublisher, @unchecked Sendable {
    static let daemonMessage = "mDNSResponder is not running: discovery is off, connect by address"

    let queue = DispatchQueue(label: "remotion.bonjour")
    private var nextID = 1
    private var registrations: [Int: (ref: DNSServiceRef, box: Unmanaged<RegisterBox>)] = [:]
    private var browses: [Int: (ref: DNSServiceRef, box: Unmanaged<BrowseBox>)] = [:]

    package init() {}

    static func error(_ code: DNSServiceErrorType) -> DiscoveryError {
        if code == DNSServiceErrorType(kDNSServiceErr_ServiceNotRunning) {
            return .daemonUnavailable(message: daemonMessage)
        }
        return .publishFailed("dns_sd error \(code)")
    }

    // MARK: publish

    package func publish(name: InstanceName, type: ServiceType, port: UInt16, txt: TXTRecord) async throws
        -> PublishedService
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PublishedService, any Error>) in
            queue.async {
                let id = self.nextID
                self.nextID += 1
                let box = Unmanaged.passRetained(RegisterBox(id: id, type: type, port: port, continuation: continuation))
                let bytes = txt.wireBytes
                var ref: DNSServiceRef?
                let code = bytes.withUnsafeBytes { raw in
                    DNSServiceRegister(&ref, 0, 0, name.value, type.description, nil, nil, port.bigEndian,
                                       UInt16(bytes.count), raw.baseAddress, registerReply, box.toOpaque())
                }
                guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let ref else {
                    box.release()
                    continuation.resume(throwing: Self.error(code))
                    return
                }
                self.registrations[id] = (ref, box) // box released in unpublish
                DNSServiceSetDispatchQueue(ref, self.queue)
            }
        }
    }

    package func unpublish(_ service: PublishedService) async {
        queue.sync {
            guard let entry = registrations.removeValue(forKey: service.id) else { return }
            DNSServiceRefDeallocate(entry.ref)
            entry.box.takeUnretainedValue().continuation?.resume(
                throwing: DiscoveryError.publishFailed("unpublished before it was announced"))
            entry.box.takeUnretainedValue().continuation = nil
            entry.box.release()
        }
    }

    // MARK: browse

    package func browse(type: ServiceType) -> AsyncStream<DiscoveryEvent> {
        let (stream, continuation) = AsyncStream<DiscoveryEvent>.makeStream(bufferingPolicy: .unbounded)
        let id: Int = queue.sync {
            let id = nextID
            nextID += 1
            let box = Unmanaged.passRetained(BrowseBox(owner: self, type: type, continuation: continuation))
            var ref: DNSServiceRef?
            let code = DNSServiceBrowse(&ref, 0, 0, type.description, nil, browseReply, box.toOpaque())
            guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let ref else {
                box.release()
                continuation.yield(code == DNSServiceErrorType(kDNSServiceErr_ServiceNotRunning)
                    ? .daemonUnavailable : .failure("dns_sd browse error \(code)"))
                return id
            }
            DNSServiceSetDispatchQueue(ref, queue)
            browses[id] = (ref, box)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.queue.async {
                guard let entry = self.browses.removeValue(forKey: id) else { return }
                DNSServiceRefDeallocate(entry.ref)
                entry.box.release()
            }
        }
        return stream
    }

    package func resolve(_ service: DiscoveredService) async throws -> ResolvedService {
        let operation = ResolveOperation(service: service, queue: queue)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { operation.start(continuation) }
            }
        } onCancel: {
            queue.async { operation.finish(.failure(CancellationError())) }
        }
    }
}

final class RegisterBox {
    let id: Int
    let type: ServiceType
    let port: UInt16
    var continuation: CheckedContinuation<PublishedService, any Error>?

    init(id: Int, type: ServiceType, port: UInt16, continuation: CheckedContinuation<PublishedService, any Error>) {
        self.id = id
        self.type = type
        self.port = port
        self.continuation = continuation
    }
}

final class BrowseBox {
    weak var owner: BonjourDiscovery?
    let type: ServiceType
    let continuation: AsyncStream<DiscoveryEvent>.Continuation

    init(owner: BonjourDiscovery, type: ServiceType, continuation: AsyncStream<DiscoveryEvent>.Continuation) {
        self.owner = owner
        self.type = type
        self.continuation = continuation
    }
}

private let registerReply: DNSServiceRegisterReply = { _, _, errorCode, name, _, _, context in
    guard let context else { return }
    let box = Unmanaged<RegisterBox>.fromOpaque(context).takeUnretainedValue()
    guard let continuation = box.continuation else { return }
    box.continuation = nil
    if errorCode == DNSServiceErrorType(kDNSServiceErr_NoError) {
        let final = name.map { String(cString: $0) } ?? ""
        continuation.resume(returning: PublishedService(id: box.id, name: final, type: box.type, port: box.port))
    } else {
        continuation.resume(throwing: BonjourDiscovery.error(errorCode))
    }
}

private let browseReply: DNSServiceBrowseReply = { _, flags, interface, errorCode, name, _, domain, context in
    guard let context else { return }
    let box = Unmanaged<BrowseBox>.fromOpaque(context).takeUnretainedValue()
    guard errorCode == DNSServiceErrorType(kDNSServiceErr_NoError) else {
        box.continuation.yield(errorCode == DNSServiceErrorType(kDNSServiceErr_ServiceNotRunning)
            ? .daemonUnavailable : .failure("dns_sd browse error \(errorCode)"))
        return
    }
    var domainText = domain.map { String(cString: $0) } ?? "local."
    if domainText.hasSuffix(".") { domainText.removeLast() }
    let service = DiscoveredService(name: name.map { String(cString: $0) } ?? "", type: box.type,
                                    domain: domainText, interfaceIndex: Int32(bitPattern: interface))
    if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
        box.continuation.yield(.added(service))
        guard let owner = box.owner else { return }
        let continuation = box.continuation
        Task {
            if let resolved = try? await owner.resolve(service) { continuation.yield(.resolved(resolved)) }
        }
    } else {
        box.continuation.yield(.removed(service))
    }
}
#endif
