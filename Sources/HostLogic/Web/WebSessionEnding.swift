import RemotionProtocol

/// Why a web controller session (or one of its sockets) ends, on either transport
/// (docs/WEB-CONTROLLER.md, "One session machine (host)"): what the host's state machine is told, and what the
/// page is told when the host ends it.
package enum WebSessionEnding: Sendable, Hashable {
    /// The page closed its socket or data channel (or the connection failed).
    case closedByPage
    /// Nothing arrived for the session's timeout (or no hello in time).
    case timedOut
    /// The device was removed on the host.
    case revoked
    /// The hello was refused (unknown device, every slot taken); the page was told why.
    case refused
    /// A newer session (or motion lane) of the same device took this one's place.
    case replaced
    /// The host is stopping.
    case shutdown
    /// The data channel's DTLS certificate is not the one its offer signalled.
    case fingerprint

    /// The reason the host's state machine records (`HostStateMachine.closeExternal`).
    package var closeReason: SessionCloseReason {
        switch self {
        case .closedByPage, .refused, .replaced, .fingerprint: .clientDisconnected(.user)
        case .timedOut: .timedOut
        case .revoked: .revoked
        case .shutdown: .hostShutdown
        }
    }

    /// What the page is told when the host ends a session (nil when the page ended it, or
    /// was already told why); `limit` is the silence that timed it out, `lane` whether the
    /// socket ending is a motion lane.
    package func goodbye(limit: Duration, lane: Bool = false) -> WebHostMessage? {
        if lane, self == .replaced {
            return .closing(reason: "replaced", message: "a newer motion lane took this one's place, or its session ended")
        }
        return switch self {
        case .timedOut: .closing(reason: "timeout", message: "nothing arrived from this phone for \(limit); reconnecting")
        case .revoked: .closing(reason: "revoked", message: "this phone was removed on the host; scan a new QR code to pair again")
        case .replaced: .closing(reason: "replaced", message: "this phone connected again; this older connection ends")
        case .closedByPage, .refused, .shutdown, .fingerprint: nil
        }
    }
}
