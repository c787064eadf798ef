#if os(Linux)
import CAvahi
import RemotionHostLogic

struct BrowseRecord {
    let type: ServiceType
    let continuation: AsyncStream<DiscoveryEvent>.Continuation
    var token: Token
    var browser: OpaquePointer?
    var tracker = BrowseTracker()
    /// Persistent resolvers per service (one per address family); they report TXT changes too.
    var resolvers: [ServiceKey: [(pointer: OpaquePointer, token: Token)]] = [:]
}

extension AvahiLoop {
    /// Registers a browse; the browser starts now or when the daemon appears.
    func addBrowse(type: ServiceType, continuation: AsyncStream<DiscoveryEvent>.Continuation) -> Int {
        locked {
            let id = makeID()
            browses[id] = BrowseRecord(type: type, continuation: continuation,
                                       token: Token(loop: self, kind: .browser(browse: id)))
            if clientRunning {
                startBrowser(id)
            } else {
                continuation.yield(.daemonUnavailable)
            }
            return id
        }
    }

    func removeBrowse(_ id: Int) {
        locked {
            guard let record = browses.removeValue(forKey: id) else { return }
            for list in record.resolvers.values { for resolver in list { avahi_service_resolver_free(resolver.pointer) } }
            if let browser = record.browser { avahi_service_browser_free(browser) }
        }
    }

    /// Poll thread or locked.
    func startBrowser(_ id: Int) {
        guard let record = browses[id], record.browser == nil, let client else { return }
        let browser = avahi_service_browser_new(
            client, ifUNSPEC, protoUNSPEC, record.type.description, nil,
            AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, userdata in
                guard let userdata else { return }
                let token = Token.from(userdata)
                guard case let .browser(id) = token.kind else { return }
                token.loop.browserEvent(id, interface: interface, proto: proto, event: event,
                                        name: string(name), domain: string(domain))
            }, record.token.pointer)
        if let browser {
            browses[id]?.browser = browser
        } else {
            record.continuation.yield(.failure("browse \(record.type): \(avahiErrorText(avahi_client_errno(client)))"))
        }
    }

    /// The daemon went away: free the C objects (the client may stay alive, waiting in
    /// CONNECTING), report removals and unavailability.
    func browserLost(_ id: Int) {
        guard var record = browses[id] else { return }
        for list in record.resolvers.values { for resolver in list { avahi_service_resolver_free(resolver.pointer) } }
        if let browser = record.browser { avahi_service_browser_free(browser) }
        for event in record.tracker.removeAll() { record.continuation.yield(event) }
        record.continuation.yield(.daemonUnavailable)
        record.browser = nil
        record.resolvers = [:]
        browses[id] = record
    }

    private func browserEvent(_ id: Int, interface: AvahiIfIndex, proto: AvahiProtocol, event: AvahiBrowserEvent,
                              name: String, domain: String) {
        guard let record = browses[id] else { return }
        let service = DiscoveredService(name: name, type: record.type, domain: domain, interfaceIndex: interface)
        let transport = addressFamily(proto)
        switch event {
        case AVAHI_BROWSER_NEW:
            if let added = browses[id]?.tracker.sighted(service, over: transport) {
                record.continuation.yield(added)
            }
            startResolvers(id, service: service, transport: transport)
        case AVAHI_BROWSER_REMOVE:
            guard let removed = browses[id]?.tracker.lost(service.key, over: transport) else { return }
            for resolver in browses[id]?.resolvers.removeValue(forKey: service.key) ?? [] {
                avahi_service_resolver_free(resolver.pointer)
            }
            record.continuation.yield(removed)
        case AVAHI_BROWSER_FAILURE:
            let error = client.map { avahiErrorText(avahi_client_errno($0)) } ?? "daemon gone"
            record.continuation.yield(.failure("browse \(record.type): \(error)"))
        default:
            break // CACHE_EXHAUSTED, ALL_FOR_NOW
        }
    }

    /// Persistent resolvers per sighting, the pairs of `AvahiLoop.resolvePairs` over the
    /// sighting's transport: A and AAAA over IPv4 for an IPv4 sighting (avahi sends AAAA
    /// records over IPv4 by default, e.g. `::1` on lo), AAAA over IPv6 for an IPv6 one (avahi
    /// does not publish A records over IPv6). The tracker merges every result.
    private func startResolvers(_ id: Int, service: DiscoveredService, transport: AddressFamily) {
        guard let client else { return }
        for (proto, family) in Self.resolvePairs where addressFamily(proto) == transport {
            let existing = browses[id]?.resolvers[service.key] ?? []
            guard !existing.contains(where: { resolver in
                if case let .browseResolver(_, _, t, f) = resolver.token.kind { return t == transport && f == family }
                return false
            }) else { continue }
            let token = Token(loop: self, kind: .browseResolver(browse: id, key: service.key, transport: transport, family: family))
            let resolver = avahi_service_resolver_new(
                client, service.interfaceIndex, proto, service.name, service.type.description, service.domain,
                avahiProtocol(family), AvahiLookupFlags(0), resolverCallback, token.pointer)
            if let resolver { browses[id]?.resolvers[service.key, default: []].append((resolver, token)) }
        }
    }

    /// A persistent resolver of a browse reported. Failures of one family are normal (a host
    /// without IPv6 never answers AAAA) and are not reported as events.
    func browseResolverEvent(_ id: Int, key: ServiceKey, transport: AddressFamily, family: AddressFamily,
                             result: ResolvedService?) {
        guard let record = browses[id], let result else { return }
        guard let event = browses[id]?.tracker.resolved(result, family: family, over: transport) else { return }
        record.continuation.yield(event)
    }
}

/// Shared C callback for all service resolvers; dispatches on the token kind.
let resolverCallback: AvahiServiceResolverCallback = {
    _, interface, _, event, _, _, _, hostName, address, port, txt, _, userdata in
    guard let userdata else { return }
    let token = Token.from(userdata)
    let loop = token.loop
    func result(_ base: DiscoveredService) -> ResolvedService? {
        guard event == AVAHI_RESOLVER_FOUND else { return nil }
        var service = base
        service.txt = TXTRecord(decoding: readStringList(txt))
        let addresses = address.map { [resolvedAddress($0, interface: interface)] } ?? []
        return ResolvedService(service: service, hostName: string(hostName), port: port,
                               addresses: addresses, txt: service.txt)
    }
    switch token.kind {
    case let .browseResolver(id, key, transport, family):
        let base = DiscoveredService(name: key.name, type: key.type, domain: key.domain,
                                     interfaceIndex: key.interfaceIndex)
        loop.browseResolverEvent(id, key: key, transport: transport, family: family, result: result(base))
    case let .resolver(id, family):
        guard let base = loop.resolves[id]?.service else { return }
        let error = event == AVAHI_RESOLVER_FOUND ? nil
            : loop.client.map { avahiErrorText(avahi_client_errno($0)) } ?? "daemon gone"
        loop.resolverEvent(id, family: family, result: result(base), error: error)
    default:
        break
    }
}
#endif
