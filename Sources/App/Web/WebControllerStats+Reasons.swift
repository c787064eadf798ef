import RemotionHostLogic

/// Why the web controller counted something, one enum per counter table: the call sites
/// name cases, and the tables (`web-stats`, the dashboard, BENCHMARKS) keep the same
/// names as text.
extension WebControllerStats {
    /// A frame or message dropped: counted, never injected.
    package enum Drop: Sendable, Hashable, CustomStringConvertible {
        case stale, tooLong, beforeHello, badText, secondHello, buttonOnMotion, inputBacklog
        /// A binary frame that does not decode (`WebFrameError.reason`).
        case badFrame(WebFrameError)
        /// On a motion lane (docs/WEB-CONTROLLER.md, "The motion lane"): text, a button, or a
        /// lane hello on a data channel.
        case laneText, laneButton, laneOnDataChannel
        /// Data-channel signalling and events.
        case rtcTooLong, rtcOffer(WebRTCOffer.Problem), rtcAnswer, rtcUnknownEvent, rtcUnknownChannel

        package var description: String {
            switch self {
            case .stale: "stale"
            case .tooLong: "too-long"
            case .beforeHello: "before-hello"
            case .badText: "bad-text"
            case .secondHello: "second-hello"
            case .buttonOnMotion: "button-on-motion"
            case .inputBacklog: "input-backlog"
            case .badFrame(let error): error.reason
            case .laneText: "lane-text"
            case .laneButton: "lane-button"
            case .laneOnDataChannel: "lane-on-data-channel"
            case .rtcTooLong: "rtc-too-long"
            case .rtcOffer(let problem): "rtc-" + problem.rawValue
            case .rtcAnswer: "rtc-answer"
            case .rtcUnknownEvent: "rtc-unknown-event"
            case .rtcUnknownChannel: "rtc-unknown-channel"
            }
        }
    }

    /// A phone refused a session (it was told why).
    package enum Refusal: String, Sendable, CaseIterable {
        case unknown, full, fingerprint
        case noSession = "no-session"
        case rtcRate = "rtc-rate", rtcFull = "rtc-full"
    }

    /// A connection the guard closed before it authenticated (docs/SECURITY.md §9).
    package enum ConnectionEnd: String, Sendable, CaseIterable {
        case perAddressCap = "per-address-cap", evicted
        case handshakeTimeout = "handshake-timeout", authenticateTimeout = "authenticate-timeout"
        case idleTimeout = "idle-timeout"
    }
}
