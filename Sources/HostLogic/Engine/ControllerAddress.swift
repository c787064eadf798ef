import RemotionProtocol

/// A network address as the engine shows and names controllers by it (the host's is NIO's
/// `SocketAddress`; tests use their own).
package protocol ControllerAddress: Hashable, Sendable {
    /// As the status, the dashboard and the log show it ("192.0.2.7:51234").
    var displayText: String { get }
    /// The host part alone: a controller that reconnects comes from a new port.
    var hostText: String { get }
}

extension ControllerOrigin where Address: ControllerAddress {
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
        case .udp(let address): "address:\(address.hostText)"
        case .web(let device, _): "device:\(device)"
        case let .dsu(server, slot): "dsu:\(server.hostText):\(slot)"
        case .localPad(let name): "pad:\(name)"
        }
    }

    /// Who names the controller's identity for calibration memory, for its bound per source
    /// (`CalibrationMemory.perSourceCapacity`): a DSU server reports its pads' MACs and the
    /// kernel reads the local pads' uniqs from the devices, so either can make up new ones
    /// without end; a paired phone's device id and a UDP controller's static key are their
    /// own source (nil).
    package var calibrationSource: String? {
        switch self {
        case let .dsu(server, _): "dsu \(server.displayText)"
        case .localPad: "local pads"
        case .web, .udp: nil
        }
    }

    /// Whose clock the controller's sample times are on: a gamepad on this computer is timed
    /// by this computer's kernel; every other controller by its own clock (`SampleTimeline`).
    package var sampleClock: SampleTimeline.Clock {
        if case .localPad = self { return .host }
        return .own
    }
}
