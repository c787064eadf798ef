import RemotionProtocol
import RemotionHostLogic

/// A peer's network address as the pair's UDP and DSU peers have one: IPv4 and a port. It
/// names a controller (`ControllerAddress`) and keys the Noise layer's rate limits and
/// cookies (`SourceAddress`) as NIO's `SocketAddress` does in the host.
package struct PeerAddress: ControllerAddress, SourceAddress, CustomStringConvertible {
    package var octets: (UInt8, UInt8, UInt8, UInt8)
    package var port: UInt16

    package init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, port: UInt16) {
        octets = (a, b, c, d)
        self.port = port
    }

    package var hostText: String { "\(octets.0).\(octets.1).\(octets.2).\(octets.3)" }
    package var displayText: String { "\(hostText):\(port)" }
    package var description: String { displayText }
    package var cookieBytes: [UInt8] { [octets.0, octets.1, octets.2, octets.3, UInt8(port >> 8), UInt8(port & 0xFF)] }

    package static func == (l: Self, r: Self) -> Bool { l.cookieBytes == r.cookieBytes }
    package func hash(into h: inout Hasher) { h.combine(cookieBytes) }
}

/// One thing the pair saw, at its virtual time (`EnginePair.log`, in order).
package struct PairEvent: Sendable, Equatable {
    package var at: Instant
    package var what: PairRecord
}

/// What a transport was asked to send, or what reached an output.
package enum PairRecord: Sendable, Equatable {
    // MARK: What each transport is asked to send

    /// A datagram sealed for a UDP peer, as that peer opened it with its own keys.
    case toUDP(PeerAddress, Message)
    /// A handshake response or cookie reply for a UDP peer (the Noise layer's own).
    case handshakeReply(PeerAddress)
    /// Something for page `index`: a frame, a text, the host's answer, a notice.
    case toPage(Int, PageDelivery)
    /// A request datagram for DSU server `index` (its subscription).
    case toDSUServer(Int, [UInt8])
    /// A game's rumble and light for the local pad `key` (its evdev force feedback).
    case toLocalPad(String, ControllerFeedback)

    // MARK: What reaches the outputs

    /// An input event the injector posted to its backend (after its held-input tracker).
    case injected(SessionID, InputEvent)
    case padOpened(SessionID, identity: String)
    case pad(SessionID, GamepadState)
    case padClosed(SessionID, rest: GamepadState)
    /// The DSU server served this many packets of the session's sample to its subscriber.
    case dsuServed(SessionID, packets: Int)
    /// Typing's borrowed keycodes were due back.
    case restoreKeycodes

    // MARK: The sessions

    case opened(SessionID, ControllerOrigin<PeerAddress>)
    case closed(SessionID, SessionCloseReason)
}

/// What the page's transport is asked to send.
package enum PageDelivery: Sendable, Equatable {
    /// A binary frame (MOTION-ACK, PONG) on a channel.
    case frame([UInt8], on: WebSession.Channel)
    /// A text (a goodbye) on a channel.
    case text(String, on: WebSession.Channel)
    /// The host's answer to a command.
    case answer(ControllerAnswer)
    /// A notice for the page (feedback, calibration, profile, text and laser answers).
    case notice(PipelineOutput)
    /// The transport stops (a data channel's goodbye had its time).
    case stopped
    /// The host ended the session (the backstop, a shutdown): the transport closes.
    case ended(SessionCloseReason)
}

/// The injector's backend of the pair: records every event posted, in order.
package final class RecordingBackend: InjectorBackend {
    package let name = "pair"
    package var posted: [(SessionID, InputEvent)] = []
    let screen: ScreenGeometry

    init(screen: ScreenGeometry) { self.screen = screen }

    package func screenGeometry() -> ScreenGeometry { screen }
    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) { posted.append((session, event)) }
    package func flush() throws(InjectionError) {}
    package func close() {}
}
