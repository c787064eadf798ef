/// The web controller's data channels (docs/WEB-CONTROLLER.md, "Transports"), given to
/// `WebControllerServer.Configuration.rtc` (nil: WebSocket only).
package struct WebRTCConfiguration: Sendable {
    /// Where each peer's ICE agent takes its one UDP port (no SO_REUSEADDR).
    package var ports: ClosedRange<Int> = 7477...7486
    /// The address candidates are gathered on (nil or a wildcard: every interface).
    package var address: String?
    package var limit = 8
    package var answerTimeout: Duration = .seconds(2)
    package init() {}
}
