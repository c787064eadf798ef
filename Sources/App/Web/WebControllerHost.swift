import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// What a web controller's WebSocket needs from the host: a session slot, a path for
/// its samples and edges into the host's one pipeline, and its own mapping mode. The
/// implementation hops to the host's event loop; events from one socket keep their order.
package protocol WebControllerHost: Sendable {
    var name: String { get }
    /// A session for a paired device, or nil when every controller slot is taken.
    func open(from address: SocketAddress, deviceName: String) async -> SessionID?
    func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64)
    func button(_ id: SessionID, _ button: Button, isDown: Bool)
    func close(_ id: SessionID, reason: SessionCloseReason)
    func recenter(_ id: SessionID)
    /// Sets (or, with nil, reads) the session's mode; returns the mode in effect.
    func mode(_ id: SessionID, set mode: MappingSettings.Mode?) async -> MappingSettings.Mode
}

/// The real host: `HostService` typed with its pipeline.
package struct PipelineWebHost<Framing: HostFraming>: WebControllerHost {
    package let host: HostService<Framing, HostPipeline>
    package let name: String

    package init(host: HostService<Framing, HostPipeline>, name: String) {
        self.host = host
        self.name = name
    }

    package func open(from address: SocketAddress, deviceName: String) async -> SessionID? {
        try? await host.onLoop { handler -> SessionID? in
            guard let id = handler.openExternal(from: address) else { return nil }
            handler.sink.setName(id, deviceName)
            return id
        }
    }

    package func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64) {
        host.externalMotion(id, sample, latencyMicros: latencyMicros)
    }

    package func button(_ id: SessionID, _ button: Button, isDown: Bool) {
        host.externalButton(id, button, isDown: isDown)
    }

    package func close(_ id: SessionID, reason: SessionCloseReason) {
        host.closeExternal(id, reason: reason)
    }

    package func recenter(_ id: SessionID) {
        host.execute { $0.sink.recenter(id) }
    }

    package func mode(_ id: SessionID, set mode: MappingSettings.Mode?) async -> MappingSettings.Mode {
        (try? await host.onLoop { $0.sink.setMode(id, mode) }) ?? nil ?? .pointer
    }
}
