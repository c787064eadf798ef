import NIOCore
import RemotionNetwork
import RemotionProtocol

/// The host's controller origins carry socket addresses.
package typealias HostControllerOrigin = ControllerOrigin<SocketAddress>

extension ControllerOrigin where Address == SocketAddress {
    /// As the status, the dashboard and the log show it: a datagram controller's address as
    /// always; the others say where they came from.
    package var displayText: String {
        switch self {
        case .udp(let address): address.displayText
        case let .web(_, peer): peer.map { "web \($0.displayText)" } ?? "web (data channel)"
        case let .dsu(server, slot): "dsu \(server.displayText) slot \(slot)"
        case .localPad(let name): "local pad \(name)"
        }
    }

    /// A name for the controller that survives a reconnect (a new port, a new session):
    /// the paired device, the DSU server's host and slot, the pad, or the address without its port.
    package var stableIdentity: String {
        switch self {
        case .udp(let address): "address:\(address.ipAddress ?? address.description)"
        case .web(let device, _): "device:\(device)"
        case let .dsu(server, slot): "dsu:\(server.ipAddress ?? server.description):\(slot)"
        case .localPad(let name): "pad:\(name)"
        }
    }
}
