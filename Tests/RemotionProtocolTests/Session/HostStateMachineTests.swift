import Testing
import RemotionProtocol
@testable import RemotionProtocol

private func ms(_ v: Int64) -> Instant { .milliseconds(v) }
private typealias Host = HostStateMachine<Int>
private typealias Act = HostAction<Int>
private let s1 = SessionID(1), s2 = SessionID(2), s3 = SessionID(3)
private let addr = 100

private func pingMsg(_ t: UInt64 = 0, offset: Int64 = 0) -> Message { .ping(clientTimeMicros: t, clockOffsetMicros: offset) }
private func edge(_ seq: UInt32, _ b: Button, _ down: Bool) -> ButtonEvent {
    ButtonEvent(sequence: seq, button: b, isDown: down, timestampMicros: 0)
}
private func motion(_ seq: UInt32, buttonSeq: UInt32 = 0, t: UInt64 = 0, buttons: ButtonSet = .none) -> Message {
    .motion(MotionPacket(sequence: seq, buttonSequence: buttonSeq, sample: MotionSample(timestampMicros: t, gyro: .zero, buttons: buttons)))
}
private func opened(_ config: Host.Configuration = .init()) -> Host {
    var h = Host(configuration: config)
    _ = h.receive(pingMsg(), session: s1, from: addr, now: ms(0))
    return h
}
private func buttonActions(_ a: [Act]) -> [Act] { a.filter { if case .button = $0 { true } else { false } } }

@Suite struct HostStateMachineTests {
    @Test func feedbackGoesToADatagramSessionsAddressOnlyAndIsNeverAcceptedFromAClient() {
        var h = opened()
        let f = ControllerFeedback(rumbleLow: 9, rumbleHigh: 0)
        #expect(h.feedback(s1, f) == [.send(.feedback(f), session: s1, to: addr)])
        #expect(h.feedback(s2, f).isEmpty)                                   // no such session
        h.sessionsElsewhere = [s2]
        #expect(h.feedback(s2, f).isEmpty)                                   // its transport carries its own
        #expect(h.receive(.feedback(f), session: s1, from: addr, now: ms(2)).isEmpty)   // host → client only
        #expect(h.drops[.unexpectedMessage] == 1)
    }

    /// Controllers the host holds on other transports take slots, and their ids are never a
    /// datagram session's (the host's engine keeps them; this machine is told).
    @Test func sessionsHeldElsewhereTakeSlotsAndTheirIds() {
        var c = Host.Configuration()
        c.maximumSessions = 2
        var h = Host(configuration: c)
        h.sessionsElsewhere = [s3]
        #expect(h.receive(pingMsg(), session: s3, from: addr, now: ms(0)).isEmpty, "an id held elsewhere")
        #expect(h.drops[.unknownSession] == 1)
        #expect(h.receive(pingMsg(), session: s1, from: addr, now: ms(0)).contains(.sessionOpened(s1, .udp(addr))))
        #expect(h.receive(pingMsg(), session: s2, from: 101, now: ms(0)) == [.send(.disconnect(.full), session: s2, to: 101)])
        #expect(h.drops[.tooManySessions] == 1 && h.sessionCount == 2)
        h.sessionsElsewhere = []
        #expect(h.receive(pingMsg(), session: s2, from: 101, now: ms(1)).contains(.sessionOpened(s2, .udp(101))))
    }

    @Test func firstPingOpensASessionAndGetsAPong() {
        var h = Host()
        let a = h.receive(pingMsg(123, offset: 7), session: s1, from: addr, now: ms(2))
        #expect(a == [.sessionOpened(s1, .udp(addr)), .send(.pong(echoClientTimeMicros: 123, hostTimeMicros: 2000), session: s1, to: addr)])
        #expect(h.sessions[s1]?.clockOffsetMicros == 7)
        #expect(h.nextDeadline == ms(2502))
        #expect(h.receive(pingMsg(124), session: s1, from: addr, now: ms(3)) == [.send(.pong(echoClientTimeMicros: 124, hostTimeMicros: 3000), session: s1, to: addr)])
    }

    @Test(arguments: [motion(1), Message.buttons([edge(1, .a, true)]), .disconnect(.user), .ack(Ack(cumulative: 0)), .pong(echoClientTimeMicros: 0, hostTimeMicros: 0)])
    func nonPingFromUnknownSessionIsDropped(_ m: Message) {
        var h = Host()
        let actions = h.receive(m, session: s1, from: addr, now: ms(0))
        // Motion and buttons for a session the host does not know are answered with a
        // disconnect, so a client whose session timed out stops streaming into the void.
        switch m {
        case .motion, .buttons: #expect(actions == [.send(.disconnect(.timeout), session: s1, to: addr)])
        default: #expect(actions.isEmpty)
        }
        #expect(h.drops[.unknownSession] == 1 && h.sessions.isEmpty)
    }

    @Test func clientOfATimedOutSessionIsToldItIsGone() {
        var h = opened()
        _ = h.tick(now: ms(3000))
        #expect(h.sessions.isEmpty)
        #expect(h.receive(.buttons([edge(1, .a, true)]), session: s1, from: addr, now: ms(3001))
                == [.send(.disconnect(.timeout), session: s1, to: addr)])
        var client = ClientSession(id: s1)
        _ = client.connect(now: ms(0))
        _ = client.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), now: ms(1))
        #expect(client.receive(.disconnect(.timeout), now: ms(3002)) == [.event(.disconnected(.timeout))])
    }

    @Test func pongsAndAcksSentToTheHostDoNotKeepASessionAlive() {
        var h = opened()
        _ = h.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), session: s1, from: addr, now: ms(2000))
        _ = h.receive(.ack(Ack(cumulative: 0)), session: s1, from: addr, now: ms(2400))
        #expect(h.drops[.unexpectedMessage] == 2)
        #expect(h.tick(now: ms(2600)) == [.sessionClosed(s1, .timedOut)])
    }

    @Test func addressMismatchIsDroppedAndDoesNotRefresh() {
        var h = opened()
        #expect(h.receive(pingMsg(), session: s1, from: addr + 1, now: ms(2000)).isEmpty)
        #expect(h.receive(.buttons([edge(1, .a, true)]), session: s1, from: addr + 1, now: ms(2000)).isEmpty)
        #expect(h.drops[.addressMismatch] == 2)
        #expect(h.sessions[s1]?.lastHeard == ms(0))
    }

    @Test func maximumSessions() {
        var c = Host.Configuration()
        c.maximumSessions = 2
        var h = opened(c)
        #expect(h.receive(pingMsg(), session: s2, from: addr + 1, now: ms(0)).count == 2)
        #expect(h.receive(pingMsg(), session: s3, from: addr + 2, now: ms(0)) == [.send(.disconnect(.full), session: s3, to: addr + 2)])
        #expect(h.drops[.tooManySessions] == 1 && h.sessions.count == 2)
        _ = h.receive(.disconnect(.user), session: s2, from: addr + 1, now: ms(1))
        #expect(h.receive(pingMsg(), session: s3, from: addr + 2, now: ms(2)).first == .sessionOpened(s3, .udp(addr + 2)))
    }

    @Test func buttonsAreDeliveredInOrderAndAcked() {
        var h = opened()
        let a = h.receive(.buttons([edge(2, .b, true)]), session: s1, from: addr, now: ms(1))
        #expect(a == [.send(.ack(Ack(cumulative: 0, selective: 1)), session: s1, to: addr)])
        let b = h.receive(.buttons([edge(1, .a, true), edge(2, .b, true)]), session: s1, from: addr, now: ms(2))
        #expect(b == [.button(s1, .a, isDown: true), .button(s1, .b, isDown: true), .send(.ack(Ack(cumulative: 2)), session: s1, to: addr)])
        // Duplicate: acked again, not delivered again.
        #expect(h.receive(.buttons([edge(1, .a, true)]), session: s1, from: addr, now: ms(3)) == [.send(.ack(Ack(cumulative: 2)), session: s1, to: addr)])
        #expect(h.sessions[s1]?.buttons == ButtonSet([.a, .b] as [Button]))
    }

    @Test func staleMotionIsDroppedNewestWins() {
        var h = opened()
        #expect(h.receive(motion(10), session: s1, from: addr, now: ms(1)).count == 1)
        #expect(h.receive(motion(9), session: s1, from: addr, now: ms(2)).isEmpty)
        #expect(h.receive(motion(10), session: s1, from: addr, now: ms(3)).isEmpty)   // duplicate
        #expect(h.receive(motion(13), session: s1, from: addr, now: ms(4)).count == 1)
        #expect(h.drops[.staleMotion] == 2)
        let st = h.sessions[s1]!.stats
        #expect(st.staleMotion == 2 && st.motionPackets == 4 && st.motionGaps == 2)
    }

    @Test func motionSequenceWraps() {
        var h = opened()
        #expect(h.receive(motion(0xFFFF_FFFE), session: s1, from: addr, now: ms(1)).count == 1)
        #expect(h.receive(motion(0xFFFF_FFFF), session: s1, from: addr, now: ms(2)).count == 1)
        #expect(h.receive(motion(0), session: s1, from: addr, now: ms(3)).count == 1)
        #expect(h.receive(motion(1), session: s1, from: addr, now: ms(4)).count == 1)
        #expect(h.receive(motion(0xFFFF_FFFF), session: s1, from: addr, now: ms(5)).isEmpty)
        // Half the space ahead counts as behind.
        #expect(h.receive(motion(1 &+ 0x8000_0000), session: s1, from: addr, now: ms(6)).isEmpty)
        #expect(h.drops[.staleMotion] == 2 && h.sessions[s1]!.stats.motionGaps == 0)
    }

    /// latency = host now − (sample timestamp + client's offset estimate).
    @Test func latencyFromClockOffset() {
        var h = Host()
        _ = h.receive(pingMsg(0, offset: 1_000_000), session: s1, from: addr, now: ms(0))
        let a = h.receive(motion(1, t: 500_000), session: s1, from: addr, now: ms(1_600))
        guard case let .motion(id, sample, latency)? = a.first else { Issue.record("no motion: \(a)"); return }
        #expect(id == s1 && sample.timestampMicros == 500_000 && latency == 100_000)
        // A later ping updates the offset.
        _ = h.receive(pingMsg(0, offset: 1_050_000), session: s1, from: addr, now: ms(1_700))
        #expect(h.receive(motion(2, t: 500_000), session: s1, from: addr, now: ms(1_600)) == [.motion(s1, sample, latencyMicros: 50_000)])
    }

    @Test func motionRepairsASingleLostEdge() {
        var h = opened()
        let a = h.receive(motion(1, buttonSeq: 1, buttons: ButtonSet([.g] as [Button])), session: s1, from: addr, now: ms(1))
        #expect(Array(a.prefix(2)) == [.button(s1, .g, isDown: true), .send(.ack(Ack(cumulative: 1)), session: s1, to: addr)])
        #expect(h.sessions[s1]?.stats.repairedEdges == 1)
        // The real edge arrives: acked, not delivered twice.
        #expect(buttonActions(h.receive(.buttons([edge(1, .g, true)]), session: s1, from: addr, now: ms(2))).isEmpty)
        // Two edges behind: no repair.
        #expect(buttonActions(h.receive(motion(2, buttonSeq: 3, buttons: .none), session: s1, from: addr, now: ms(3))).isEmpty)
    }

    @Test func timeoutReleasesHeldButtonsBeforeSessionClosed() {
        var h = opened()
        _ = h.receive(.buttons([edge(1, .c, true), edge(2, .a, true)]), session: s1, from: addr, now: ms(100))
        #expect(h.nextDeadline == ms(2600))
        #expect(h.tick(now: ms(2599)).isEmpty)
        #expect(h.tick(now: ms(2600)) == [.button(s1, .a, isDown: false), .button(s1, .c, isDown: false), .sessionClosed(s1, .timedOut)])
        #expect(h.sessions.isEmpty && h.nextDeadline == nil)
        #expect(h.tick(now: ms(9000)).isEmpty)
    }

    /// The host's loop blocked for 12 s (the datagrams waiting in its socket): the first
    /// timer after it closes nobody, because a gap longer than `stallAllowance` between the
    /// times the machine is given is the host's, not the controllers'. Real silence still
    /// closes the session with what it held released, and the machine asks to look in often
    /// enough that a caller honouring `nextDeadline` never looks like a stall.
    @Test func aHostStallIsNotTheControllersSilence() {
        var config = Host.Configuration()
        config.stallAllowance = .seconds(1)
        var h = opened(config)
        _ = h.receive(.buttons([edge(1, .a, true)]), session: s1, from: addr, now: ms(100))
        #expect(h.nextDeadline == ms(600), "half the allowance after the last time it was given")
        #expect(h.tick(now: ms(12_100)).isEmpty, "a 12 s stall closes nobody")
        #expect(h.sessions[s1]?.lastHeard == ms(12_100))
        var now = ms(12_100)
        var closed: [Act] = []
        while closed.isEmpty, now < ms(20_000), let next = h.nextDeadline {
            #expect(next - now <= .milliseconds(500))
            now = next
            closed = h.tick(now: now)
        }
        #expect(closed == [.button(s1, .a, isDown: false), .sessionClosed(s1, .timedOut)])
        #expect(now == ms(14_600), "2.5 s of real silence after the stall")
    }

    /// Without a stall allowance (the default) every gap is silence, however the caller looks in.
    @Test func withoutAnAllowanceEveryGapIsSilence() {
        var h = opened()
        #expect(h.tick(now: ms(12_100)) == [.sessionClosed(s1, .timedOut)])
    }

    @Test func disconnectClosesAtOnceAndReleases() {
        var h = opened()
        _ = h.receive(.buttons([edge(1, .p, true)]), session: s1, from: addr, now: ms(1))
        #expect(h.receive(.disconnect(.user), session: s1, from: addr, now: ms(2)) == [.button(s1, .p, isDown: false), .sessionClosed(s1, .clientDisconnected(.user))])
        #expect(h.sessions.isEmpty)
        #expect(h.receive(motion(1), session: s1, from: addr, now: ms(3)) == [.send(.disconnect(.timeout), session: s1, to: addr)])
        #expect(h.drops[.unknownSession] == 1)
    }

    @Test func shutdownSaysGoodbyeAndReleases() {
        var h = opened()
        _ = h.receive(pingMsg(), session: s2, from: addr + 1, now: ms(0))
        _ = h.receive(.buttons([edge(1, .b, true)]), session: s2, from: addr + 1, now: ms(1))
        #expect(h.shutdown() == [
            .send(.disconnect(.shutdown), session: s1, to: addr), .sessionClosed(s1, .hostShutdown),
            .send(.disconnect(.shutdown), session: s2, to: addr + 1), .button(s2, .b, isDown: false), .sessionClosed(s2, .hostShutdown),
        ])
        #expect(h.sessions.isEmpty)
    }

    @Test func messagesOnlyTheHostSendsAreUnexpected() {
        var h = opened()
        #expect(h.receive(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0), session: s1, from: addr, now: ms(1)).isEmpty)
        #expect(h.receive(.ack(Ack(cumulative: 5)), session: s1, from: addr, now: ms(1)).isEmpty)
        #expect(h.drops[.unexpectedMessage] == 2)
    }

    @Test func dropsCountedByTheFramingAddUp() {
        var h = Host()
        h.countDrop(.authenticationFailed)
        h.countDrop(.unsupportedKind)
        #expect(h.drops[.authenticationFailed] == 1 && h.drops.total == 2 && h.sessions.isEmpty)
    }

    /// 10 000 random and mutated datagrams that do not decode, while a session is connected:
    /// each is counted under its own reason, none produces an action, and the session keeps working.
    @Test func malformedDatagramsAreCountedAndHarmless() {
        var rng = SplitMix64(seed: 0xBAD_DA7A)
        var h = opened()
        _ = h.receive(.buttons([edge(1, .a, true)]), session: s1, from: addr, now: ms(1))
        _ = h.receive(motion(1), session: s1, from: addr, now: ms(1))
        let valid: [[UInt8]] = [
            PlainDatagram(session: s1, message: .buttons([edge(2, .a, false), edge(3, .b, true)])).encode(),
            PlainDatagram(session: s1, message: motion(2, buttonSeq: 3, buttons: ButtonSet([.b] as [Button]))).encode(),
            PlainDatagram(session: s1, message: pingMsg(5)).encode(),
            PlainDatagram(session: s1, message: .disconnect(.user)).encode(),
        ]
        var expected: [DropReason: Int] = [:]
        var fed = 0
        while fed < 10_000 {
            var bytes: [UInt8]
            if rng.chance(0.3) {
                bytes = rng.bytes(Int.random(in: 0...80, using: &rng))
            } else {
                bytes = valid.randomElement(using: &rng)!
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
                case 1: bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng))
                case 2: bytes += rng.bytes(Int.random(in: 1...8, using: &rng))
                default: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = rng.byte()
                }
            }
            let reason: WireError
            do throws(WireError) { _ = try PlainDatagram.decode(bytes); continue } catch { reason = error }
            expected[.malformed(reason), default: 0] += 1
            let actions = bytes.withUnsafeBytes { h.receive(datagram: $0, from: addr, now: ms(2)) }
            #expect(actions.isEmpty)
            fed += 1
        }
        #expect(h.drops.counts == expected)
        #expect(expected.count >= 8)
        #expect(h.drops.total == 10_000)
        // Still the same session, still working.
        #expect(h.sessions[s1]?.buttons == ButtonSet([.a] as [Button]))
        let b = valid[0].withUnsafeBytes { h.receive(datagram: $0, from: addr, now: ms(3)) }
        #expect(buttonActions(b) == [.button(s1, .a, isDown: false), .button(s1, .b, isDown: true)])
        #expect(valid[1].withUnsafeBytes { h.receive(datagram: $0, from: addr, now: ms(4)) }.count == 1)
        #expect(valid[2].withUnsafeBytes { h.receive(datagram: $0, from: addr, now: ms(5)) } == [.send(.pong(echoClientTimeMicros: 5, hostTimeMicros: 5000), session: s1, to: addr)])
    }

    @Test func dropSummary() {
        var d = DropCounters()
        d.count(.staleMotion); d.count(.staleMotion); d.count(.malformed(.truncated))
        #expect(d.summary == "stale-motion=2 malformed:truncated=1")
        #expect(d[.unknownSession] == 0 && d.total == 3)
    }
}

/// What the host's framing does with a plain datagram, for the tests of the state machine:
/// decode it and hand the message over (the production path is `HostFraming.inbound`).
extension HostStateMachine {
    mutating func receive(datagram: UnsafeRawBufferPointer, from address: Address, now: Instant) -> [HostAction<Address>] {
        let decoded: PlainDatagram
        do {
            decoded = try PlainDatagram.decode(datagram)
        } catch {
            countDrop(.malformed(error))
            return []
        }
        return receive(decoded.message, session: decoded.session, from: address, now: now)
    }
}
