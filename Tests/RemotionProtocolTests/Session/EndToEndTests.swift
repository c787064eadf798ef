import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// A ClientSession and a HostStateMachine joined by a seeded lossy channel (30% loss
/// both ways, duplication, reordering), real encoded bytes in between, 30 simulated
/// seconds of 60 Hz motion and random button presses: every edge the client put in its
/// stream reaches the host exactly once and in order; nothing is left unacknowledged.
@Suite struct EndToEndTests {
    struct Run {
        var clientEdges: [ButtonEvent] = []          // the stream, by sequence
        var hostEdges: [SessionID: [(Button, Bool)]] = [:]
        var finalSession = SessionID(1)
        var connectAttempts = 1
        var events: [ClientSession.Event] = []
        var hostClosed = 0
        var motions = 0
        var repaired = 0
        var unacknowledged = 0
        var retransmissions = 0
        var drops = DropCounters()
        var latencies: [Int64] = []
    }

    static func simulate(seed: UInt64, loss: Double = 0.3, seconds: Int64 = 30) throws -> Run {
        var rng = SplitMix64(seed: seed)
        let clientAddress = 1
        var client = ClientSession(id: SessionID(UInt32(truncatingIfNeeded: seed) | 1))
        var reconnectDue = false
        var host = HostStateMachine<Int>()
        var up = SimulatedChannel<[UInt8]>(loss: loss, duplication: 0.1, delay: 1...40)
        var down = SimulatedChannel<[UInt8]>(loss: loss, duplication: 0.1, delay: 1...40)
        var run = Run()
        var held = ButtonSet.none
        var nextPress = Instant.milliseconds(300)        // some presses land before the connect
        var nextMotion = Instant.zero

        func send(_ actions: [ClientSession.Action], now: Instant) {
            for case .send(let m) in actions {
                if case .buttons(let batch) = m {
                    for e in batch where e.sequence > UInt32(run.clientEdges.count) { run.clientEdges.append(e) }
                }
                up.send(PlainDatagram(session: client.id, message: m).encode(), now: now, rng: &rng)
            }
            for case .event(let e) in actions {
                run.events.append(e)
                // What the app does (ClientAppStateMachine: timeout → start again): a
                // connect that never got a pong is retried with a new session.
                if e == .timedOut { reconnectDue = true }
            }
        }

        send(client.connect(now: .zero), now: .zero)
        let end = seconds * 1000
        for step in 0...end {
            let now = Instant.milliseconds(step)
            // Presses stop 3 s before the end so the last edges have time to be acked.
            if step < end - 3000, now >= nextPress {
                let b = Button.allCases.randomElement(using: &rng)!
                let down = !held.contains(b)
                held.set(b, down: down)
                send(try client.setButton(b, down: down, now: now), now: now)
                nextPress = now + .milliseconds(Int64.random(in: 10...400, using: &rng))
            }
            if now >= nextMotion {
                let sample = MotionSample(timestampMicros: UInt64(now.microseconds), gyro: Vector3(x: 0.1, y: 0, z: 0))
                send(client.motion(sample, now: now), now: now)
                nextMotion = now + .milliseconds(16)
            }
            if let d = client.nextDeadline, now >= d { send(client.tick(now: now), now: now) }
            if reconnectDue {
                reconnectDue = false
                run.connectAttempts += 1
                client = ClientSession(id: SessionID(client.id.rawValue &+ 2))
                run.clientEdges = []
                for b in held.buttons { _ = try client.setButton(b, down: true, now: now) }
                send(client.connect(now: now), now: now)
            }

            var hostActions: [HostAction<Int>] = []
            for datagram in up.receive(now: now) {
                hostActions += datagram.withUnsafeBytes { host.receive(datagram: $0, from: clientAddress, now: now) }
            }
            if let d = host.nextDeadline, now >= d { hostActions += host.tick(now: now) }
            for a in hostActions {
                switch a {
                case let .send(m, session, to):
                    #expect(to == clientAddress)
                    down.send(PlainDatagram(session: session, message: m).encode(), now: now, rng: &rng)
                case let .button(id, b, isDown): run.hostEdges[id, default: []].append((b, isDown))
                case let .motion(_, _, latency): run.motions += 1; if let latency { run.latencies.append(latency) }
                case .sessionClosed: run.hostClosed += 1
                case .sessionOpened: break
                }
            }
            for datagram in down.receive(now: now) {
                let d = try PlainDatagram.decode(datagram)
                // Late answers to an abandoned session are not for this one.
                if d.session == client.id { send(client.receive(d.message, now: now), now: now) }
            }
        }
        run.finalSession = client.id
        run.unacknowledged = client.sender.unacknowledged
        run.retransmissions = client.sender.retransmissions
        run.repaired = host.sessions.values.map(\.stats.repairedEdges).reduce(0, +)
        run.drops = host.drops
        return run
    }

    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func everyEdgeExactlyOnceInOrder(seed: UInt64) throws {
        let run = try Self.simulate(seed: seed)
        // Each attempt either never connected (.timedOut, retried) or is the last one,
        // which connected and stayed connected for the whole run.
        #expect(run.events == Array(repeating: .timedOut, count: run.connectAttempts - 1) + [.connected], "client events: \(run.events)")
        #expect(run.hostClosed == run.connectAttempts - 1 || run.hostClosed == 0)
        try #require(run.clientEdges.count > 100)
        #expect(run.clientEdges.map(\.sequence) == Array(1...UInt32(run.clientEdges.count)))
        let hostEdges = run.hostEdges[run.finalSession] ?? []
        #expect(hostEdges.count == run.clientEdges.count)
        #expect(zip(hostEdges, run.clientEdges).allSatisfy { $0.0 == $1.button && $0.1 == $1.isDown })
        #expect(run.unacknowledged == 0)
        #expect(run.retransmissions > 0)
        #expect(run.motions > 1000)
        // Simulated clocks are shared, so the estimated one-way latency is the channel delay.
        let meanLatency = run.latencies.reduce(0, +) / Int64(max(1, run.latencies.count))
        #expect((1_000...40_000).contains(meanLatency), "mean latency \(meanLatency) µs")
    }

    /// Without loss the first ping connects. Edges may still be repaired: a motion packet
    /// can overtake the buttons datagram sent before it (reordering), and the repair is
    /// then the right edge, delivered once.
    @Test func cleanChannel() throws {
        let run = try Self.simulate(seed: 99, loss: 0, seconds: 10)
        #expect(run.events == [.connected] && run.connectAttempts == 1)
        let hostEdges = run.hostEdges[run.finalSession] ?? []
        #expect(hostEdges.count == run.clientEdges.count && run.clientEdges.count > 20)
        #expect(hostEdges.count == run.clientEdges.count)
        #expect(zip(hostEdges, run.clientEdges).allSatisfy { $0.0 == $1.button && $0.1 == $1.isDown })
        #expect(run.unacknowledged == 0)
        #expect(run.drops.total == run.drops[.staleMotion])   // reordering only
    }
}
