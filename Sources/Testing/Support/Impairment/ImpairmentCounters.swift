/// Which way a datagram travels through the relay.
package enum ImpairmentDirection: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// From a client (controller) towards the host.
    case clientToHost
    /// From the host back towards a client.
    case hostToClient

    package var description: String { self == .clientToHost ? "client->host" : "host->client" }
}

/// What happened to the datagrams of one direction.
///
/// Invariant: `received + duplicated == dropped + overflowed + delivered + queued`,
/// where `queued` is what the scheduler still holds for that direction.
package struct ImpairmentCounters: Sendable, Hashable, CustomStringConvertible {
    /// Datagrams submitted.
    package var received: Int = 0
    /// Datagrams dropped by the loss roll.
    package var dropped: Int = 0
    /// Datagrams that got a second copy.
    package var duplicated: Int = 0
    /// Copies held back by the reorder roll.
    package var reordered: Int = 0
    /// Copies handed out by `deliverable(now:)`.
    package var delivered: Int = 0
    /// Copies refused because the queue was full.
    package var overflowed: Int = 0

    package init() {}

    package var description: String {
        "received=\(received) dropped=\(dropped) duplicated=\(duplicated) reordered=\(reordered) delivered=\(delivered) overflowed=\(overflowed)"
    }
}

/// Counters for both directions.
package struct ImpairmentStats: Sendable, Hashable, CustomStringConvertible {
    package var clientToHost = ImpairmentCounters()
    package var hostToClient = ImpairmentCounters()

    package init() {}

    package subscript(direction: ImpairmentDirection) -> ImpairmentCounters {
        get { direction == .clientToHost ? clientToHost : hostToClient }
        set {
            if direction == .clientToHost { clientToHost = newValue } else { hostToClient = newValue }
        }
    }

    package var description: String {
        "client->host: \(clientToHost); host->client: \(hostToClient)"
    }
}
