import RemotionHostLogic
import RemotionProtocol
import Testing

/// The one web session machine (docs/WEB-CONTROLLER.md, "One session machine") on virtual
/// time: both transports' channels, button truth, stale drops, ordering, closing.
@Suite struct WebSessionTests {
    typealias Action = WebSession.Action

    /// The page's MOTION frame (52 bytes): frame `i` at 60 Hz, page time 1000 s + i × 16 ms.
    static func motion(_ i: Int, buttons: ButtonSet = .none, clutch: Bool = false, gyro: Bool = true) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 52)
        b[0] = 0x01
        b[1] = (gyro ? 0x02 : 0) | (clutch ? 0x08 : 0)
        put(&b, 2, UInt64(buttons.rawValue), 2)
        put(&b, 4, UInt64(i), 4)
        put(&b, 8, pageMillis(i).bitPattern, 8)
        put(&b, 28, UInt64(Float(1).bitPattern), 4)
        return b
    }
    static func button(_ button: Button, down: Bool) -> [UInt8] {
        [0x02, button.rawValue, down ? 1 : 0, 0, 0, 0, 0, 0]
    }
    static func ping(pageMillis: Double, rttTenths: UInt16 = 0) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 16)
        b[0] = 0x03
        put(&b, 2, UInt64(rttTenths), 2)
        put(&b, 4, 7, 4)
        put(&b, 8, pageMillis.bitPattern, 8)
        return b
    }
    static func put(_ b: inout [UInt8], _ at: Int, _ v: UInt64, _ n: Int) {
        for k in 0..<n { b[at + k] = UInt8(v >> (8 * UInt64(k)) & 0xFF) }
    }
    static func pageMillis(_ i: Int) -> Double { 1_000_000 + Double(i) * 16 }
    /// Frame `i` arriving on a quiet link: 3 ms after it left, the host's epoch 5 s ahead.
    static func onTime(_ i: Int, late: Double = 0) -> WebSession.Time {
        let ms = pageMillis(i) + 3 + late
        return WebSession.Time(monotonic: Instant(nanoseconds: Int64(ms * 1e6)), epochMillis: ms + 5000)
    }

    static func open(_ transport: WebSession.Transport) -> WebSession {
        var s = WebSession(transport: transport)
        s.opened()
        return s
    }
    static func motions(_ actions: [Action]) -> [MotionSample] {
        actions.compactMap { if case let .host(.motion(s, _)) = $0 { s } else { nil } }
    }
    static func hostSide(_ actions: [Action]) -> [Action] {
        actions.filter { if case .send = $0 { false } else { true } }
    }

    @Test func nothingCountsBeforeTheHostOpensTheSession() {
        var s = WebSession(transport: .dataChannels)
        #expect(s.received(Self.motion(1), on: .motion, at: Self.onTime(1)) == [.drop(.beforeOpen)])
        #expect(s.input(.key(Key(name: "Return")!), on: .control) == [.drop(.beforeOpen)])
        s.opened()
        #expect(Self.motions(s.received(Self.motion(2), on: .motion, at: Self.onTime(2))).count == 1)
    }

    @Test func aStaleFrameIsDroppedWhicheverChannelItCameOn() {
        var s = Self.open(.webSocket)
        #expect(Self.motions(s.received(Self.motion(10), on: .lane, at: Self.onTime(10))).count == 1)
        let late = s.received(Self.motion(9), on: .primary, at: Self.onTime(10, late: 1))
        #expect(Self.motions(late).isEmpty, "older than the lane's frame: stale")
        #expect(late == [.send(WebSession.ack(9), on: .primary)], "a WebSocket still acknowledges it (its socket has nothing in flight)")
        #expect(s.intakeCounters.stale == 1)
        #expect(Self.motions(s.received(Self.motion(11), on: .primary, at: Self.onTime(11))).count == 1, "newest wins")

        var d = Self.open(.dataChannels)
        _ = d.received(Self.motion(5), on: .motion, at: Self.onTime(5))
        #expect(d.received(Self.motion(4), on: .motion, at: Self.onTime(5, late: 60)) == [], "stale: no motion, no ack")
        #expect(d.intakeCounters.stale == 1)
    }

    @Test func aLaneNeverPressesReleasesTypesOrCommands() {
        var s = Self.open(.webSocket)
        _ = s.received(Self.button(.a, down: true), on: .primary, at: Self.onTime(0))
        let lane = Self.motions(s.received(Self.motion(1, buttons: ButtonSet([.b])), on: .lane, at: Self.onTime(1)))
        #expect(lane.map(\.buttons) == [ButtonSet([.a])], "the lane's frame carries the primary's buttons, not its own")
        #expect(s.received(Self.button(.a, down: false), on: .lane, at: Self.onTime(1)) == [.drop(.laneButton)])
        #expect(s.input(.text("rm -rf"), on: .lane) == [.drop(.laneText)])
        #expect(s.command(.recenter, on: .lane) == [.drop(.laneText)])
        #expect(s.buttons == ButtonSet([.a]))
        // The primary's frames are the truth.
        let primary = Self.hostSide(s.received(Self.motion(2, buttons: .none), on: .primary, at: Self.onTime(2)))
        #expect(Self.motions(primary).map(\.buttons) == [ButtonSet.none])
        #expect(s.buttons == .none)
    }

    @Test func theMotionChannelCarriesTheControlChannelsButtons() {
        var s = Self.open(.dataChannels)
        #expect(Self.hostSide(s.received(Self.button(.c, down: true), on: .control, at: Self.onTime(0))) == [.host(.button(.c, isDown: true))])
        #expect(s.received(Self.button(.c, down: false), on: .motion, at: Self.onTime(0)) == [.drop(.buttonOnMotion)])
        let m = Self.motions(s.received(Self.motion(1, buttons: .none), on: .motion, at: Self.onTime(1)))
        #expect(m.map(\.buttons) == [ButtonSet([.c])], "a late or forged motion frame cannot undo an edge")
        #expect(s.input(.click(.left, down: nil), on: .motion) == [.drop(.badText)])
        #expect(s.input(.click(.left, down: nil), on: .control) == [.host(.input(.click(.left, down: nil)))])
    }

    @Test func heldMotionGoesBeforeAnEdgeOrAPageMessage() {
        do {
            var s = Self.open(.webSocket)
            let channel = WebSession.Channel.primary
            for i in 0..<10 { _ = s.received(Self.motion(i), on: channel, at: Self.onTime(i)) }
            // A stall: frame 10 arrives 200 ms late (the first out of the backlog) and is held.
            #expect(Self.motions(s.received(Self.motion(10), on: channel, at: Self.onTime(10, late: 200))).isEmpty)
            #expect(s.nextDeadline != nil)
            let edge = Self.hostSide(s.received(Self.button(.a, down: true), on: channel, at: Self.onTime(10, late: 201)))
            #expect(edge.count == 2)
            #expect(Self.motions(Array(edge.prefix(1))).count == 1, "the held motion first")
            #expect(edge.last == .host(.button(.a, isDown: true)), "then the edge")

            _ = s.received(Self.motion(11), on: channel, at: Self.onTime(11, late: 400))
            let typed = s.input(.text("hi"), on: channel)
            #expect(typed.last == .host(.input(.text("hi"))))
            #expect(Self.motions(typed).count == 1 && typed.count == 2, "the held frame, then the message")
            #expect(s.nextDeadline == nil, "nothing is left held behind the message")
        }
        // A data channel retransmits nothing: frames close together are its pacing, never held.
        var d = Self.open(.dataChannels)
        for i in 0..<10 { _ = d.received(Self.motion(i), on: .motion, at: Self.onTime(i)) }
        #expect(Self.motions(d.received(Self.motion(10), on: .motion, at: Self.onTime(10, late: 200))).count == 1)
        #expect(Self.motions(d.received(Self.motion(11), on: .motion, at: Self.onTime(10, late: 201))).count == 1)
        #expect(d.nextDeadline == nil)
    }

    @Test func theClockOffsetComesFromPingsButNotALanes() {
        var s = Self.open(.webSocket)
        guard case let .host(.motion(_, first))? = s.received(Self.motion(1), on: .primary, at: Self.onTime(1)).first else {
            Issue.record("no motion"); return
        }
        #expect(first == nil, "no estimate before a ping")
        // A lane's ping: heard and answered, no estimate.
        let lanePing = Self.ping(pageMillis: Self.pageMillis(2))
        #expect(s.received(lanePing, on: .lane, at: Self.onTime(2)) == [.host(.heard), .send(WebFrame.pong(echoing: lanePing), on: .lane)])
        var m = s.received(Self.motion(3), on: .primary, at: Self.onTime(3))
        guard case let .host(.motion(_, latency))? = m.first else { Issue.record("no motion"); return }
        #expect(latency == nil, "no estimate from a lane's ping")
        // The primary's ping: 5 s offset, so the frame's 3 ms on the wire is its latency.
        _ = s.received(Self.ping(pageMillis: Self.pageMillis(4)), on: .primary, at: Self.onTime(4, late: -3))
        m = s.received(Self.motion(5), on: .primary, at: Self.onTime(5))
        guard case let .host(.motion(_, latency))? = m.first else { Issue.record("no motion"); return }
        #expect(latency == 3000)

        var d = Self.open(.dataChannels)
        let ping = Self.ping(pageMillis: 1)
        #expect(d.received(ping, on: .motion, at: Self.onTime(0)) == [.host(.heard), .send(WebFrame.pong(echoing: ping), on: .control)],
                "a data channel's pong goes back on control")
    }

    @Test func closingReleasesTheButtonsThenEndsAndNothingCountsAfter() {
        var s = Self.open(.webSocket)
        _ = s.received(Self.button(.b, down: true), on: .primary, at: Self.onTime(0))
        _ = s.received(Self.button(.a, down: true), on: .primary, at: Self.onTime(0))
        let closed = s.close(.revoked, limit: .seconds(2.5), at: Self.onTime(1))
        #expect(closed == [.host(.button(.a, isDown: false)), .host(.button(.b, isDown: false)), .end(.revoked)])
        #expect(s.isClosed && s.buttons == .none)
        #expect(s.received(Self.motion(2, buttons: ButtonSet([.a])), on: .primary, at: Self.onTime(2)) == [])
        #expect(s.received(Self.button(.a, down: true), on: .primary, at: Self.onTime(2)) == [])
        #expect(s.input(.text("x"), on: .primary) == [])
        #expect(s.command(.recenter, on: .primary) == [])
        #expect(s.close(.timedOut, limit: .seconds(2.5), at: Self.onTime(3)) == [], "once")
        #expect(s.nextDeadline == nil)
    }

    @Test func aClosedDataChannelSaysGoodbyeAndStopsAtItsDeadline() {
        var s = Self.open(.dataChannels)
        _ = s.received(Self.button(.d, down: true), on: .control, at: Self.onTime(0))
        for i in 1..<8 { _ = s.received(Self.motion(i), on: .motion, at: Self.onTime(i)) }
        _ = s.received(Self.motion(8), on: .motion, at: Self.onTime(8, late: 200))
        let at = Self.onTime(9, late: 200)
        let closed = s.close(.timedOut, limit: .seconds(2.5), at: at)
        let goodbye = WebSessionEnding.timedOut.goodbye(limit: .seconds(2.5))!.text
        #expect(closed == [.host(.button(.d, isDown: false)), .end(.timedOut), .sendText(goodbye, on: .control)])
        #expect(s.nextDeadline == at.monotonic + WebSession.linger)
        #expect(s.expire(at: WebSession.Time(monotonic: at.monotonic + .milliseconds(49), epochMillis: 0)) == [])
        #expect(s.expire(at: WebSession.Time(monotonic: at.monotonic + WebSession.linger, epochMillis: 0)) == [.stopTransport])
        #expect(s.nextDeadline == nil)
        #expect(s.expire(at: WebSession.Time(monotonic: at.monotonic + .seconds(1), epochMillis: 0)) == [], "once")

        var page = Self.open(.dataChannels)
        #expect(page.close(.closedByPage, limit: .seconds(2.5), at: at) == [.end(.closedByPage), .stopTransport], "the page is gone: stop at once")
        var refused = WebSession(transport: .dataChannels)
        #expect(refused.close(.refused, limit: .seconds(2.5), at: at) == [], "never opened: nothing for the host; the refusal leaves first")
        #expect(refused.expire(at: WebSession.Time(monotonic: at.monotonic + WebSession.linger, epochMillis: 0)) == [.stopTransport])
    }

    @Test func dataChannelAcksAreRateLimitedWebSocketAcksAreNot() {
        var d = Self.open(.dataChannels)
        var acks = 0
        for i in 0..<6 { acks += d.received(Self.motion(i), on: .motion, at: Self.onTime(i)).filter { if case .send = $0 { true } else { false } }.count }
        #expect(acks == 2, "every 50 ms at 16 ms per frame: frames 0 and 4")
        var w = Self.open(.webSocket)
        acks = 0
        for i in 0..<6 { acks += w.received(Self.motion(i), on: .primary, at: Self.onTime(i)).filter { if case .send = $0 { true } else { false } }.count }
        #expect(acks == 6)
    }

    @Test func pageInputWaitingForTheHostIsBounded() {
        var s = Self.open(.dataChannels)
        for _ in 0..<WebSession.maxInputsInFlight { #expect(s.input(.scroll(dx: 0, dy: 1), on: .control) == [.host(.input(.scroll(dx: 0, dy: 1)))]) }
        #expect(s.input(.scroll(dx: 0, dy: 1), on: .control) == [.drop(.inputBacklog)])
        s.inputDone()
        #expect(s.input(.scroll(dx: 0, dy: 1), on: .control) == [.host(.input(.scroll(dx: 0, dy: 1)))])
    }

    @Test func badFramesAreDroppedWithTheirReason() {
        var s = Self.open(.webSocket)
        #expect(s.received([0x09], on: .primary, at: Self.onTime(0)) == [.drop(.badFrame(.unknownType(9)))])
        #expect(s.received([], on: .primary, at: Self.onTime(0)) == [.drop(.badFrame(.empty))])
    }
}
