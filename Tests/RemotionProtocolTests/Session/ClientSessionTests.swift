import Testing
import RemotionProtocol
@testable import RemotionProtocol

private func ms(_ v: Int64) -> Instant { .milliseconds(v) }
private let id = SessionID(0xC0FFEE)

private func ping(_ t: Int64, offset: Int64 = 0) -> ClientSession.Action {
    .send(.ping(clientTimeMicros: UInt64(t * 1000), clockOffsetMicros: offset))
}

/// A session that connected at 10 ms (ping at 0, pong back at 10 ms).
private func connectedSession() -> ClientSession {
    var c = ClientSession(id: id)
    _ = c.connect(now: ms(0))
    _ = c.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 5_000), now: ms(10))
    return c
}

@Suite struct ClientSessionTests {
    @Test func feedbackFromTheHostIsAnEventOnceConnectedAndCountsAsHearingIt() {
        let f = ControllerFeedback(rumbleLow: 255, rumbleHigh: 128, lightbar: .init(red: 0, green: 0, blue: 255))
        var waiting = ClientSession(id: id)
        _ = waiting.connect(now: ms(0))
        #expect(waiting.receive(.feedback(f), now: ms(5)).isEmpty)    // not before the first pong
        var c = connectedSession()
        #expect(c.receive(.feedback(f), now: ms(2400)) == [.event(.feedback(f))])
        #expect(c.tick(now: ms(2600)).allSatisfy { if case .event = $0 { false } else { true } })  // heard at 2.4 s: no timeout yet
    }

    @Test func connectPingsEveryHalfSecondUntilThePong() {
        var c = ClientSession(id: id)
        #expect(c.state == .idle && c.nextDeadline == nil)
        #expect(c.connect(now: ms(0)) == [ping(0)])
        #expect(c.connect(now: ms(1)).isEmpty)               // only from idle
        #expect(c.state == .connecting)
        #expect(c.nextDeadline == ms(500))
        #expect(c.tick(now: ms(499)).isEmpty)
        #expect(c.tick(now: ms(500)) == [ping(500)])
        #expect(c.tick(now: ms(1000)) == [ping(1000)])
        #expect(c.receive(.pong(echoClientTimeMicros: 1_000_000, hostTimeMicros: 0), now: ms(1020)) == [.event(.connected)])
        #expect(c.state == .connected)
        #expect(c.tick(now: ms(1500)) == [ping(1500, offset: c.clock.offsetMicros)])
        #expect(c.receive(.pong(echoClientTimeMicros: 1_500_000, hostTimeMicros: 0), now: ms(1510)).isEmpty)  // only the first
    }

    @Test func neverConnectedTimesOut() {
        var c = ClientSession(id: id)
        var pings = c.connect(now: ms(0)).count
        var events: [ClientSession.Event] = []
        var now = ms(0)
        while let deadline = c.nextDeadline {
            now = deadline
            for a in c.tick(now: now) {
                if case .send(.ping) = a { pings += 1 }
                if case .event(let e) = a { events.append(e) }
            }
        }
        #expect(events == [.timedOut])
        // 0 and 0.5 s, then, with the pong overdue, probes every 0.1 s: 0.6 … 2.4 s.
        #expect(now == ms(2500) && pings == 21)
        #expect(c.state == .closed)
        #expect(c.tick(now: ms(9000)).isEmpty)
    }

    @Test func connectedSessionDisconnectsOnSilence() {
        var c = connectedSession()
        #expect(c.tick(now: ms(2509)).allSatisfy { if case .event = $0 { false } else { true } })
        #expect(c.tick(now: ms(2510)) == [.event(.disconnected(.timeout))])
        #expect(c.state == .closed && c.nextDeadline == nil)
    }

    @Test func acksKeepTheSessionAlive() throws {
        var c = connectedSession()
        _ = try c.setButton(.a, down: true, now: ms(20))
        _ = c.receive(.ack(Ack(cumulative: 1)), now: ms(2000))
        #expect(!c.tick(now: ms(2510)).contains(.event(.disconnected(.timeout))))
        #expect(c.tick(now: ms(4500)) == [.event(.disconnected(.timeout))])
    }

    @Test func disconnectMessage() {
        var c = connectedSession()
        #expect(c.receive(.disconnect(.shutdown), now: ms(100)) == [.event(.disconnected(.shutdown))])
        #expect(c.state == .closed)
        #expect(c.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), now: ms(101)).isEmpty)

        var early = ClientSession(id: id)
        _ = early.connect(now: ms(0))
        #expect(early.receive(.disconnect(.user), now: ms(5)) == [.event(.timedOut)])
    }

    @Test func closeSaysGoodbyeOnlyWhenActive() {
        var idle = ClientSession(id: id)
        #expect(idle.close().isEmpty)
        var connecting = ClientSession(id: id)
        _ = connecting.connect(now: ms(0))
        #expect(connecting.close(reason: .shutdown) == [.send(.disconnect(.shutdown))])
        var c = connectedSession()
        #expect(c.close() == [.send(.disconnect(.user))])
        #expect(c.state == .closed && c.close().isEmpty && c.tick(now: ms(100)).isEmpty)
    }

    @Test func buttonsPressedBeforeConnectAreAnnouncedOnConnect() throws {
        var c = ClientSession(id: id)
        _ = c.connect(now: ms(0))
        #expect(try c.setButton(.b, down: true, now: ms(1)).isEmpty)
        #expect(try c.setButton(.d, down: true, now: ms(2)).isEmpty)
        #expect(try c.setButton(.e, down: true, now: ms(2)).isEmpty)
        #expect(try c.setButton(.e, down: false, now: ms(3)).isEmpty)    // released again: nothing to say
        let actions = c.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), now: ms(10))
        #expect(actions == [.event(.connected), .send(.buttons([
            ButtonEvent(sequence: 1, button: .b, isDown: true, timestampMicros: 10_000),
            ButtonEvent(sequence: 2, button: .d, isDown: true, timestampMicros: 10_000)]))])
    }

    @Test func repeatedPressesAreIgnored() throws {
        var c = connectedSession()
        #expect(try c.setButton(.a, down: true, now: ms(20)) == [.send(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 20_000)]))])
        #expect(try c.setButton(.a, down: true, now: ms(21)).isEmpty)
        #expect(try c.setButton(.b, down: false, now: ms(22)).isEmpty)  // release of a button never pressed
        #expect(try c.setButton(.a, down: false, now: ms(23)).count == 1)
        #expect(c.sender.lastSequence == 2)
    }

    @Test func motionCarriesSequenceButtonsAndStreamPosition() throws {
        var c = ClientSession(id: id)
        _ = c.connect(now: ms(0))
        #expect(c.motion(MotionSample(timestampMicros: 1), now: ms(1)).isEmpty)   // not connected yet
        _ = c.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), now: ms(10))
        _ = try c.setButton(.f, down: true, now: ms(11))
        let sample = MotionSample(timestampMicros: 12, gyro: .zero, buttons: .none)
        let a = c.motion(sample, now: ms(12))
        var expected = sample
        expected.buttons = ButtonSet([.f] as [Button])
        #expect(a == [.send(.motion(MotionPacket(sequence: 1, buttonSequence: 1, sample: expected)))])
        #expect(c.motion(sample, now: ms(13)).count == 1 && c.motionSequence == 2)
    }

    @Test func unacknowledgedEdgesAreResentOnTick() throws {
        var c = connectedSession()                 // the pong gave a 10 ms RTT sample
        _ = try c.setButton(.a, down: true, now: ms(20))
        let deadline = try #require(c.sender.retransmitDeadline)
        #expect(c.nextDeadline == deadline)
        #expect(c.tick(now: deadline) == [.send(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 20_000)]))])
    }

    /// NTP-style offset: host time minus the midpoint of the exchange. Ping at 0, host
    /// stamps 1 000 050 µs, pong back at 100 µs → offset 1 000 000 µs; the next ping carries it.
    @Test func clockOffsetFromPongsTravelsInPings() {
        var c = ClientSession(id: id)
        _ = c.connect(now: ms(0))
        _ = c.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 1_000_050), now: Instant(nanoseconds: 100_000))
        #expect(c.clock.offsetMicros == 1_000_000)
        #expect(c.sender.rtt.smoothed == .microseconds(100))
        #expect(c.tick(now: ms(500)) == [ping(500, offset: 1_000_000)])
    }

    @Test func pongFromTheFutureIsIgnored() {
        var c = ClientSession(id: id)
        _ = c.connect(now: ms(0))
        #expect(c.receive(.pong(echoClientTimeMicros: 5_000_000, hostTimeMicros: 0), now: ms(10)).isEmpty)
        #expect(c.state == .connecting)
    }

    /// A pong's echo comes off the wire: any 64-bit value must be handled without trapping
    /// (echo · 1000 overflowed Int64 for echoes above ~9.2·10^15).
    @Test(arguments: [UInt64.max, UInt64(Int64.max), UInt64(Int64.max / 1000) + 1, 1 << 62])
    func absurdPongEchoIsIgnored(echo: UInt64) {
        var c = ClientSession(id: id)
        _ = c.connect(now: ms(0))
        #expect(c.receive(.pong(echoClientTimeMicros: echo, hostTimeMicros: 0), now: ms(10)).isEmpty)
        #expect(c.state == .connecting)
        #expect(c.sender.rtt.smoothed == nil)
    }
}
