#if os(Linux)
import CAvahi
import RemotionHostLogic

struct ResolveRecord {
    let service: DiscoveredService
    var resolvers: [(pointer: OpaquePointer, token: Token)] = []
    var pending = 0
    var results: [AddressFamily: ResolvedService] = [:]
    var errors: [String] = []
    /// Resumed once: on the first result, when all resolvers failed, or on cancellation.
    var waiter: CheckedContinuation<Void, Never>?
    var signalled = false
}

extension AvahiLoop {
    /// How long to wait for the other address families after the first one answered. mDNS
    /// responders send A and AAAA in one packet, so the second answer is normally immediate.
    static let familyGrace: Duration = .milliseconds(150)

    /// The (query transport, address family) pairs: A over IPv4, AAAA over IPv4, AAAA over IPv6
    /// (avahi does not publish A records over IPv6 by default).
    static let resolvePairs: [(AvahiProtocol, AddressFamily)] = [
        (protoINET, .ipv4),
        (protoINET, .ipv6),
        (protoINET6, .ipv6),
    ]

    func resolveOnce(_ service: DiscoveredService) async throws -> ResolvedService {
        let id = locked { makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                locked { startResolve(id, service: service, waiter: waiter) }
            }
        } onCancel: {
            locked { signal(id) }
        }
        let allDone = locked { resolves[id].map { $0.pending == 0 } ?? true }
        if !allDone, !Task.isCancelled { try? await Task.sleep(for: Self.familyGrace) }
        return try locked { () throws -> ResolvedService in
            guard let record = resolves.removeValue(forKey: id) else { throw unavailableError }
            for resolver in record.resolvers { avahi_service_resolver_free(resolver.pointer) }
            if let merged = BrowseTracker.merge(record.results) { return merged }
            try Task.checkCancellation()
            if !clientRunning { throw unavailableError }
            let reason = record.errors.first ?? "no answer"
            throw DiscoveryError.resolveFailed(name: service.name, reason: reason)
        }
    }

    /// Locked.
    private func startResolve(_ id: Int, service: DiscoveredService, waiter: CheckedContinuation<Void, Never>) {
        var record = ResolveRecord(service: service, waiter: waiter)
        resolves[id] = record
        guard clientRunning, let client, !Task.isCancelled else {
            signal(id)
            return
        }
        for (transport, family) in Self.resolvePairs {
            let token = Token(loop: self, kind: .resolver(resolve: id, family: family))
            let resolver = avahi_service_resolver_new(
                client, service.interfaceIndex, transport, service.name, service.type.description,
                service.domain, avahiProtocol(family), AvahiLookupFlags(0), resolverCallback, token.pointer)
            if let resolver {
                record.resolvers.append((resolver, token))
                record.pending += 1
            } else {
                record.errors.append(avahiErrorText(avahi_client_errno(client)))
            }
        }
        resolves[id]?.resolvers = record.resolvers
        resolves[id]?.pending = record.pending
        resolves[id]?.errors = record.errors
        if record.pending == 0 { signal(id) }
    }

    /// Poll thread.
    func resolverEvent(_ id: Int, family: AddressFamily, result: ResolvedService?, error: String?) {
        guard resolves[id] != nil else { return }
        resolves[id]!.pending -= 1
        if let result {
            // Keep the first answer of a family; a second (AAAA over IPv6) only adds addresses.
            if var existing = resolves[id]!.results[family] {
                for address in result.addresses where !existing.addresses.contains(address) {
                    existing.addresses.append(address)
                }
                resolves[id]!.results[family] = existing
            } else {
                resolves[id]!.results[family] = result
            }
            signal(id)
        } else if let error {
            resolves[id]!.errors.append(error)
        }
        if resolves[id]!.pending <= 0 { signal(id) }
    }

    /// Poll thread (daemon gone): free the resolvers and wake the caller.
    func resolveLost(_ id: Int) {
        for resolver in resolves[id]?.resolvers ?? [] { avahi_service_resolver_free(resolver.pointer) }
        resolves[id]?.resolvers = []
        resolves[id]?.pending = 0
        signal(id)
    }

    /// Poll thread or locked.
    private func signal(_ id: Int) {
        guard let record = resolves[id], !record.signalled else { return }
        resolves[id]?.signalled = true
        resolves[id]?.waiter = nil
        record.waiter?.resume()
    }
}
#endif
