import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Each virtual pad is a UHID device, a reader thread, a udev event and a journal line made
/// on the host's loop. A DSU source has no authentication: the server (or anyone who can
/// spoof its UDP) may say "disconnected" and send data again as fast as it likes, and each
/// round trip is a session closed and opened. Under `[gamepad] for = "every"` every session
/// opens with a pad, so the pad limit (`PadOpenLimit`) must hold at open too, not only for
/// pads given on request. Driven here as the host's DSU adapter does: a real
/// `DSUSourceStateMachine` decodes the server's datagrams, its events open, feed and close
/// the slot's session in a real `HostEngine`, on virtual time.
@Suite struct PadFlappingTests {
    typealias Address = EngineHarness.Address
    static let server = Address(host: "127.0.0.1", port: 26_760)

    /// The host's DSU adapter, as data: the state machine and the slot's session.
    struct Source {
        var machine = DSUSourceStateMachine(configuration: .init(clientID: testClientID))
        var session: SessionID?
        var counter: UInt32 = 0

        /// One pad-data datagram for slot 0 (connected or not) through the machine, its
        /// events performed on the engine as `DSUSourceHandler.deliver` does.
        mutating func pad(connected: Bool, into h: inout EngineHarness) {
            counter += 1
            let datagram = SourceStateMachineTests.pad(slot: 0, counter: counter, micros: UInt64(counter) * 1_000,
                                                       connected: connected)
            for event in machine.receive(datagram, now: h.now).events {
                switch event {
                case .slotConnected(let slot):
                    session = h.open(.dsu(server: PadFlappingTests.server, slot: slot))
                case let .sample(_, sample):
                    if let session { h.send(.motion(sample, latencyMicros: nil), to: session) }
                case .slotDisconnected:
                    if let id = session { h.send(.close(.clientDisconnected(.user)), to: id) }
                    session = nil
                case .serverVersion:
                    break
                }
            }
        }
    }

    /// The pads made (`padOpened`) and destroyed (`padClosed`) in the log, of any session.
    static func padsMade(_ h: EngineHarness) -> (opened: Int, closed: Int) {
        var opened = 0, closed = 0
        for case let .session(_, output) in h.log {
            if case .padOpened = output { opened += 1 }
            if case .padClosed = output { closed += 1 }
        }
        return (opened, closed)
    }

    /// A source flapping 100 times in one second makes at most the limit's pads, and every
    /// pad it made is gone when its session goes (rest, then destroy: no pad left over).
    /// Another controller connecting meanwhile still gets its pad at once (the limit is per
    /// controller). When the source settles, its session gets the pad it is owed as soon as
    /// the window allows, from the timer, without another reconnect.
    @Test func aFlappingDSUSourceMakesAtMostTheLimitsPads() throws {
        var h = EngineHarness()
        var source = Source()
        for _ in 0..<100 {
            source.pad(connected: true, into: &h)
            h.now = h.now + .milliseconds(5)
            source.pad(connected: false, into: &h)
            h.now = h.now + .milliseconds(5)
        }
        #expect(h.opened.count == 100 && h.closed.count == 100, "every round trip is a session")
        let made = Self.padsMade(h)
        #expect(made.opened <= PadOpenLimit.limit, "100 round trips made \(made.opened) pads")
        #expect(made.opened == made.closed, "every pad made was destroyed with its session")

        let opened = h.open(.web(device: "phone-2", peer: nil))
        let phone = try #require(opened)
        #expect(h.outputs(phone).contains(.padOpened(identity: "device:phone-2")), "another controller is not held back")

        // The source settles: connected, sending data every 100 ms.
        h.clear()
        source.pad(connected: true, into: &h)
        let settled = try #require(source.session)
        #expect(!h.outputs(settled).contains { if case .padOpened = $0 { true } else { false } }, "still within the window")
        var givenAt: Instant?
        for _ in 0..<120 {
            h.advance(by: .milliseconds(100))
            source.pad(connected: true, into: &h)
            if givenAt == nil, h.outputs(settled).contains(where: { if case .padOpened = $0 { true } else { false } }) {
                givenAt = h.now
            }
        }
        let at = try #require(givenAt, "the settled source never got its pad")
        #expect(at <= Instant.zero + .seconds(1) + PadOpenLimit.window + .milliseconds(200), "given when the window passed: \(at)")
        #expect(h.engine.core.hasPad(settled) == true)
        #expect(Self.padsMade(h).opened == 1, "one pad for the settled session")
    }

    /// The pad held back at open is owed only while the session lives: a session that goes
    /// before the window passes leaves nothing owed, and the timer makes no pad for it.
    @Test func aPadOwedToASessionThatEndedIsNeverMade() throws {
        var h = EngineHarness()
        var source = Source()
        for _ in 0..<(PadOpenLimit.limit + 1) {
            source.pad(connected: true, into: &h)
            source.pad(connected: false, into: &h)
        }
        h.clear()
        h.advance(by: PadOpenLimit.window + .seconds(1))
        #expect(Self.padsMade(h) == (0, 0))
        #expect(h.engine.nextDeadline == nil, "no deadline for a pad nobody is owed")
    }
}
