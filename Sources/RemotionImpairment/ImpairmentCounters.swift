/// Which way a datagram travels through the relay.
public enum ImpairmentDirection: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// From a client (controller) towards the host.
    case clientToHost
    /// From the host back towards a client.
    case hostToClient

    public var description: String { self == .clientToHost ? "client->host" : "host->client" }
}

/// What happened to the datagrams of one direction.
///
/// Invariant: `received + duplicated == dropped + overflowed + delivered + queued`,
/// where `queued` is what the scheduler still holds for that direction.
public struct ImpairmentCounters: Sendable, Hashable, CustomStringConvertible {
    /// Datagrams submitted.
    public var received: Int = 0
    /// Datagrams dropped by the loss roll.
    public var dropped: Int = 0
    /// Datagrams that got a second copy.
    public var duplicated: Int = 0
    /// Copies held back by the reorder roll.
    public var reordered: Int = 0
    /// Copies handed out by `deliverable(now:)`.
    public var delivered: Int = 0
    /// Copies refused because the queue was full.
    public var overflowed: Int = 0

    public init() {}

    public var description: String {
        "received=\(received) dropped=\(dropped) duplicated=\(duplicated) reordered=\(reordered) delivered=\(delivered) overflowed=\(overflowed)"
    }
}

/// Counters for both directions.
public struct ImpairmentStats: Sendable, Hashable, CustomStringConvertible {
    public var clientToHost = ImpairmentCounters()
    public var hostToClient = ImpairmentCounters()

    public init() {}

    public subscript(direction: ImpairmentDirection) -> ImpairmentCounters {
        get { direction == .clientToHost ? clientToHost : hostToClient }
        set {
            if direction == .clientToHost { clientToHost = newValue } else { hostToClient = newValue }
        }
    }

    public var description: String {
        "client->host: \(clientToHost); host->client: \(hostToClient)"
    }
}
