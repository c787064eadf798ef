/// Where a controller session came from (docs/ARCHITECTURE.md, "Controllers on other
/// transports"): the one typed origin every way in shares — the protocol's own datagrams,
/// the web page, a DSU server's slot, a gamepad on this computer — so the host opens them
/// all through one call, and the status says where each came from. Generic over the
/// address like `HostStateMachine` (a `SocketAddress` on the host; this target stays sans-IO).
public enum ControllerOrigin<Address: Hashable & Sendable>: Hashable, Sendable {
    /// A datagram session of the protocol, from its UDP source address.
    case udp(Address)
    /// A paired phone's web page (WebSocket or data channels): the device's id, and the
    /// phone's address when the transport knows it (a data channel's ICE path is not one).
    case web(device: String, peer: Address?)
    /// One slot (0–3) of a DSU server the host reads.
    case dsu(server: Address, slot: UInt8)
    /// A gamepad attached to this computer (its device node or name).
    case localPad(String)

    /// The network address the controller reaches the host from, when it has one.
    public var address: Address? {
        switch self {
        case .udp(let address): address
        case .web(_, let peer): peer
        case .dsu(let server, _): server
        case .localPad: nil
        }
    }

    /// The transport's name as the status shows it.
    public var kind: String {
        switch self {
        case .udp: "udp"
        case .web: "web"
        case .dsu: "dsu"
        case .localPad: "local-pad"
        }
    }
}
