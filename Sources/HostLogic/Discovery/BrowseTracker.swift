/// Normalises raw backend callbacks into `DiscoveryEvent`s. Pure, used by the backends.
///
/// mDNS backends report one sighting per (service, interface, transport family) and one
/// resolve result per address family. The tracker emits one `.added` per `ServiceKey`
/// (on its first sighting), one `.removed` (when its last sighting goes), and `.resolved`
/// with the addresses of all families merged (IPv4 first). A result is kept per (query
/// transport, address family): A over IPv4, AAAA over IPv4 (avahi's default
/// `publish-aaaa-on-ipv4`, which carries e.g. `::1` on lo) and AAAA over IPv6 all count.
package struct BrowseTracker: Sendable {
    private struct Tracked: Sendable {
        var service: DiscoveredService
        var sightings: Set<AddressFamily>
        var resolvedByChannel: [Channel: ResolvedService] = [:]
    }

    /// Which query a result answered: the transport it went over and the record family.
    struct Channel: Hashable, Sendable {
        var transport: AddressFamily
        var family: AddressFamily
    }

    private var tracked: [ServiceKey: Tracked] = [:]

    package init() {}

    package var keys: [ServiceKey] { tracked.keys.sorted() }

    package func service(for key: ServiceKey) -> DiscoveredService? { tracked[key]?.service }

    /// A sighting over `transport`; returns `.added` when the key is new.
    package mutating func sighted(_ service: DiscoveredService, over transport: AddressFamily) -> DiscoveryEvent? {
        let key = service.key
        if tracked[key] != nil {
            tracked[key]!.sightings.insert(transport)
            return nil
        }
        tracked[key] = Tracked(service: service, sightings: [transport])
        return .added(service)
    }

    /// A sighting went away; returns `.removed` when it was the last one for the key.
    package mutating func lost(_ key: ServiceKey, over transport: AddressFamily) -> DiscoveryEvent? {
        guard var entry = tracked[key] else { return nil }
        entry.sightings.remove(transport)
        if entry.sightings.isEmpty {
            tracked[key] = nil
            return .removed(entry.service)
        }
        tracked[key] = entry
        return nil
    }

    /// A resolve result for one address family (queried over `transport`, the family's own
    /// by default); returns `.resolved` with all results merged, or nil for unknown keys or
    /// when nothing changed.
    package mutating func resolved(_ result: ResolvedService, family: AddressFamily,
                                   over transport: AddressFamily? = nil) -> DiscoveryEvent? {
        guard var entry = tracked[result.key] else { return nil }
        let before = Self.merge(channels: entry.resolvedByChannel)
        entry.resolvedByChannel[Channel(transport: transport ?? family, family: family)] = result
        tracked[result.key] = entry
        let after = Self.merge(channels: entry.resolvedByChannel)
        guard let after, after != before else { return nil }
        return .resolved(after)
    }

    /// Forgets everything (daemon gone); returns `.removed` for each known service.
    package mutating func removeAll() -> [DiscoveryEvent] {
        let events = tracked.keys.sorted().map { DiscoveryEvent.removed(tracked[$0]!.service) }
        tracked.removeAll()
        return events
    }

    /// Merges per-channel results: per family the result over the family's own transport
    /// is the base, the other transport's addresses are added; then `merge(_:)`.
    static func merge(channels: [Channel: ResolvedService]) -> ResolvedService? {
        var byFamily: [AddressFamily: ResolvedService] = [:]
        for family in [AddressFamily.ipv4, .ipv6] {
            let ordered = [family, family == .ipv4 ? .ipv6 : .ipv4].compactMap { channels[Channel(transport: $0, family: family)] }
            guard var base = ordered.first else { continue }
            for other in ordered.dropFirst() {
                for address in other.addresses where !base.addresses.contains(address) { base.addresses.append(address) }
            }
            byFamily[family] = base
        }
        return merge(byFamily)
    }

    /// Merges per-family results: host/port/TXT from the newest IPv4 result (else IPv6),
    /// addresses IPv4 first, without duplicates.
    package static func merge(_ byFamily: [AddressFamily: ResolvedService]) -> ResolvedService? {
        guard var base = byFamily[.ipv4] ?? byFamily[.ipv6] else { return nil }
        var addresses: [ResolvedAddress] = []
        for family in [AddressFamily.ipv4, .ipv6] {
            for address in byFamily[family]?.addresses ?? [] where !addresses.contains(address) {
                addresses.append(address)
            }
        }
        base.addresses = addresses
        return base
    }
}
