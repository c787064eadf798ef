/// The live list of hosts built from browse events (for `remotion hosts` and the client's
/// "selecting" state). Pure: feed it events, read `entries`.
package struct HostList: Sendable {
    package struct Entry: Hashable, Sendable {
        package var service: DiscoveredService
        package var resolved: ResolvedService?

        /// Host TXT decoded from the resolved record, nil while unresolved or malformed.
        package var hostTXT: HostTXT? {
            guard let txt = resolved?.txt else { return nil }
            return try? HostTXT(record: txt)
        }
    }

    package enum Change: Hashable, Sendable {
        case appeared(ServiceKey)
        case disappeared(ServiceKey)
        case updated(ServiceKey)
        case cleared
    }

    private var byKey: [ServiceKey: Entry] = [:]

    package init() {}

    /// Applies one event; returns what changed (nil for events that change nothing).
    @discardableResult
    package mutating func apply(_ event: DiscoveryEvent) -> Change? {
        switch event {
        case let .added(service):
            let key = service.key
            if byKey[key] != nil { return nil }
            byKey[key] = Entry(service: service, resolved: nil)
            return .appeared(key)
        case let .removed(service):
            return byKey.removeValue(forKey: service.key) == nil ? nil : .disappeared(service.key)
        case let .resolved(resolved):
            let key = resolved.key
            if var entry = byKey[key] {
                guard entry.resolved != resolved else { return nil }
                entry.resolved = resolved
                byKey[key] = entry
                return .updated(key)
            }
            // A resolve that arrives without an add (backend order) still shows the host.
            byKey[key] = Entry(service: resolved.service, resolved: resolved)
            return .appeared(key)
        case .daemonUnavailable:
            if byKey.isEmpty { return nil }
            byKey.removeAll()
            return .cleared
        case .failure:
            return nil
        }
    }

    /// Entries sorted by name, then type, domain, interface.
    package var entries: [Entry] { byKey.keys.sorted().map { byKey[$0]! } }

    package var count: Int { byKey.count }
    package var isEmpty: Bool { byKey.isEmpty }
    package subscript(key: ServiceKey) -> Entry? { byKey[key] }

    /// Entries that are resolved, one per instance name (first interface wins), for a chooser.
    package var selectable: [ResolvedService] {
        var seen = Set<String>()
        var result: [ResolvedService] = []
        for entry in entries {
            guard let resolved = entry.resolved, seen.insert(entry.service.name).inserted else { continue }
            result.append(resolved)
        }
        return result
    }
}
