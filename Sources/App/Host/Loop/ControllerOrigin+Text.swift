import NIOCore
import RemotionNetwork
import RemotionProtocol
import RemotionHostLogic

/// The host's controller origins carry socket addresses.
package typealias HostControllerOrigin = ControllerOrigin<SocketAddress>

/// How the engine shows and names a controller by its socket address
/// (`ControllerOrigin.displayText`, `stableIdentity`).
extension SocketAddress: ControllerAddress {
    /// The IP address without the port.
    package var hostText: String { ipAddress ?? description }
}
