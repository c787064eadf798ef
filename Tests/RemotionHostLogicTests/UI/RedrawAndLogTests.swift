import RemotionProtocol
import RemotionHostLogic
import Testing

@Suite struct RedrawPolicyTests {
    let a = Fixtures.welcome
    let b = Fixtures.busy

    @Test func drawsOnlyChangedSnapshotsAtMostTenTimesASecond() {
        var policy = RedrawPolicy()
        #expect(policy.decide(a, now: .milliseconds(0)) == .draw)
        #expect(policy.decide(a, now: .milliseconds(5)) == .idle)
        #expect(policy.decide(b, now: .milliseconds(30)) == .wait(until: .milliseconds(100)))
        #expect(policy.decide(b, now: .milliseconds(100)) == .draw)
        #expect(policy.decide(b, now: .milliseconds(500)) == .idle)
        policy.invalidate()
        #expect(policy.decide(b, now: .milliseconds(501)) == .draw)
    }

    @Test func rateStaysAtOrBelowTenHertzUnderConstantChange() {
        var policy = RedrawPolicy()
        var draws = 0
        var snapshot = a
        for ms in stride(from: Int64(0), to: 1000, by: 4) {  // a new snapshot every 4 ms for 1 s
            snapshot.host.port = UInt16(ms)
            if policy.decide(snapshot, now: .milliseconds(ms)) == .draw { draws += 1 }
        }
        #expect(draws == 10)
    }

    @Test func pendingInputComesFirstButCannotFreezeTheScreen() {
        var policy = RedrawPolicy()
        #expect(policy.decide(a, now: .milliseconds(0)) == .draw)
        #expect(policy.decide(b, now: .milliseconds(200), inputPending: true) == .yieldToInput)
        #expect(policy.decide(b, now: .milliseconds(450), inputPending: true) == .yieldToInput)
        #expect(policy.decide(b, now: .milliseconds(460), inputPending: false) == .draw)
        // Constant input: the draw is held back for at most 500 ms.
        var c = b
        c.host.port = 1
        #expect(policy.decide(c, now: .milliseconds(600), inputPending: true) == .yieldToInput)
        #expect(policy.decide(c, now: .milliseconds(1099), inputPending: true) == .yieldToInput)
        #expect(policy.decide(c, now: .milliseconds(1100), inputPending: true) == .draw)
    }
}

@Suite struct StatusLogTests {
    @Test func oneJSONLinePerStateChange() {
        var log = StatusLog()
        var snapshot = Fixtures.welcome
        var lines = log.lines(for: snapshot, at: .milliseconds(1250))
        lines += log.lines(for: snapshot, at: .milliseconds(1300))  // nothing changed
        var pixel = Fixtures.pixel
        pixel.buttons = .none
        pixel.held = []
        pixel.state = .connecting
        snapshot.controllers = [pixel]
        lines += log.lines(for: snapshot, at: .seconds(2))
        pixel.state = .connected
        pixel.attitude = Attitude(roll: 1, pitch: 0, yaw: 0)  // continuous: no line of its own
        snapshot.controllers = [pixel]
        lines += log.lines(for: snapshot, at: .seconds(2.5))
        pixel.buttons = ButtonSet([.a, .c])
        pixel.held = [.mouse(.left)]
        snapshot.controllers = [pixel]
        lines += log.lines(for: snapshot, at: .seconds(2.625))
        pixel.link.packetsPerSecond = 1
        snapshot.controllers = [pixel]
        lines += log.lines(for: snapshot, at: .seconds(3))
        snapshot.controllers = []
        lines += log.lines(for: snapshot, at: .seconds(9))
        #expect(lines.count == 5)
        GoldenFile.check("status-log.jsonl", lines)
    }
}
