import RemotionHostLogic
import RemotionProtocol
import Testing

/// The page's Calibrate: the request parsed strictly, only on the channel
/// that owns the session, and the host's calibration messages as the page reads them.
@Suite struct WebCalibrationMessageTests {
    @Test func theRequestParsesAndMalformedVariantsAreRejected() {
        #expect(WebClientMessage.parse(#"{"type":"command","command":"calibrate"}"#) == .calibrate)
        #expect(WebClientMessage.parse(#"{"command":"calibrate","type":"command"}"#) == .calibrate)
        let malformed = [
            #"{"type":"calibrate"}"#,                                // not a command
            #"{"type":"command","command":"Calibrate"}"#,
            #"{"type":"command","command":"calibrate "}"#,
            #"{"type":"command","command":"calibration"}"#,
            #"{"type":"command","command":1}"#,
            #"{"type":"command","command":null}"#,
            #"{"type":"command","command":["calibrate"]}"#,
            #"{"type":"command"}"#,
            #"{"type":"Command","command":"calibrate"}"#,
            #"{"type":"command","command":"calibrate""#,            // cut short
            #"["command","calibrate"]"#,
            #""calibrate""#,
            "calibrate",
            "",
            #"{"type":"command","command":"calibrate","pad":""# + String(repeating: "x", count: 1024) + #""}"#,   // too long
        ]
        for text in malformed { #expect(WebClientMessage.parse(text) == nil, "\(text.prefix(60))") }
    }

    @Test func theHostsMessagesAsThePageReadsThem() {
        #expect(WebHostMessage.calibration(.running(progress: 0)).text
            == #"{"type":"calibration","state":"running","progress":0.0}"#)
        #expect(WebHostMessage.calibration(.running(progress: 0.427)).text
            == #"{"type":"calibration","state":"running","progress":0.42}"#)
        #expect(WebHostMessage.calibration(.running(progress: .nan)).text.contains(#""progress":0.0"#))
        #expect(WebHostMessage.calibration(.running(progress: 7)).text.contains(#""progress":1.0"#))
        #expect(WebHostMessage.calibration(.done).text == #"{"type":"calibration","state":"done","progress":1}"#)
        #expect(WebHostMessage.calibration(.moved).text == #"{"type":"calibration","state":"failed","reason":"moved"}"#)
        #expect(WebHostMessage.calibration(.unavailable(.off)).text
            == #"{"type":"calibration","state":"unavailable","reason":"off"}"#)
        #expect(WebHostMessage.calibration(.unavailable(.noGyro)).text
            == #"{"type":"calibration","state":"unavailable","reason":"no-gyro"}"#)
        #expect(WebHostMessage(.calibration(.done)) == .calibration(.done))
        #expect(WebHostMessage(.feedback(ControllerFeedback(rumbleLow: 1, rumbleHigh: 2)))
            == .feedback(ControllerFeedback(rumbleLow: 1, rumbleHigh: 2)))
    }

    /// Only the channel that opened the session may ask; a lane or the motion channel is
    /// counted and dropped; before the session opens and after it closes nothing happens.
    @Test func onlyTheSessionsOwnChannelMayAsk() {
        for transport in [WebSession.Transport.webSocket, .dataChannels] {
            var s = WebSession(transport: transport)
            #expect(s.command(.calibrate, on: transport == .webSocket ? .primary : .control).isEmpty, "before open")
            s.opened()
            #expect(s.command(.calibrate, on: .primary) == [.host(.calibrate)])
            #expect(s.command(.calibrate, on: .control) == [.host(.calibrate)])
            #expect(s.command(.calibrate, on: .lane) == [.drop(.laneText)])
            #expect(s.command(.calibrate, on: .motion) == [.drop(.badText)])
            _ = s.close(.closedByPage, limit: .seconds(2.5), at: WebSession.Time(monotonic: .zero, epochMillis: 0))
            #expect(s.command(.calibrate, on: .primary).isEmpty, "closed")
        }
    }
}
