import RemotionHostLogic
import RemotionProtocol
import Testing

/// The motion lane (docs/WEB-CONTROLLER.md, "The motion lane"): who may attach to which
/// session (`WebLiveSessions`), and newest wins across two sockets on virtual time.
@Suite struct WebMotionLanesTests {
    typealias Live = WebLiveSessions<String, String>

    @Test func aLaneAttachesOnlyToTheOpenSessionItNames() {
        var live = Live()
        let r1 = live.attachLane("phone", session: "01", end: "lane")
        #expect(r1 == .failure(.noSession), "no session yet")
        let claim = live.claimSession("phone", end: "session 1")
        #expect(claim.replaced.isEmpty)
        let r2 = live.attachLane("phone", session: "01", end: "lane")
        #expect(r2 == .failure(.noSession), "claimed, not open")
        let r3 = live.opened("phone", token: claim.token, label: "01", core: "core 1")
        #expect(r3)
        let r4 = live.attachLane("phone", session: "02", end: "lane")
        #expect(r4 == .failure(.noSession), "another session's label")
        let r5 = live.attachLane("tablet", session: "01", end: "lane")
        #expect(r5 == .failure(.noSession), "another device")
        guard case .success(let lane) = live.attachLane("phone", session: "01", end: "lane 1") else { Issue.record(); return }
        #expect(lane.core == "core 1" && lane.replaced.isEmpty)
        #expect(live.sessions == 1 && live.lanes == 1)
    }

    @Test func oneLanePerDeviceANewerOneReplacesIt() {
        var live = Live()
        let claim = live.claimSession("phone", end: "session")
        live.opened("phone", token: claim.token, label: "01", core: "core")
        guard case .success(let first) = live.attachLane("phone", session: "01", end: "lane 1"),
              case .success(let second) = live.attachLane("phone", session: "01", end: "lane 2") else { Issue.record(); return }
        #expect(second.replaced == ["lane 1"], "the older lane is ended")
        #expect(live.lanes == 1 && live.sessions == 1, "the session is untouched")
        live.releaseLane("phone", token: first.token)
        #expect(live.holdsLane("phone", token: second.token), "the replaced lane's late release frees nothing")
        live.releaseLane("phone", token: second.token)
        #expect(live.lanes == 0 && live.sessions == 1, "a lane's end leaves the session")
    }

    @Test func theLaneDiesWithItsSessionAndCannotJoinTheNextOne() {
        var live = Live()
        let one = live.claimSession("phone", end: "session 1")
        live.opened("phone", token: one.token, label: "01", core: "core 1")
        _ = live.attachLane("phone", session: "01", end: "lane 1")
        let r6 = live.releaseSession("phone", token: one.token)
        #expect(r6 == ["lane 1"])
        #expect(live.lanes == 0 && live.sessions == 0)
        // A reconnect replaces a session and its lane together.
        let two = live.claimSession("phone", end: "session 2")
        live.opened("phone", token: two.token, label: "02", core: "core 2")
        _ = live.attachLane("phone", session: "02", end: "lane 2")
        let three = live.claimSession("phone", end: "session 3")
        #expect(three.replaced == ["session 2", "lane 2"])
        let r7 = live.releaseSession("phone", token: two.token)
        #expect(r7.isEmpty, "an old claim releases nothing")
        live.opened("phone", token: three.token, label: "03", core: "core 3")
        let r8 = live.attachLane("phone", session: "02", end: "late")
        #expect(r8 == .failure(.noSession), "the old session's label is dead")
        let r9 = live.opened("phone", token: two.token, label: "02", core: "core 2")
        #expect(!r9, "a replaced claim cannot reopen")
    }

    // MARK: newest wins across two sockets

    static let interval: Int64 = 16_667
    static func frame(_ i: Int) -> NewestWinsIntake.Frame {
        let t = 1_000_000 + UInt64(i) * UInt64(interval)
        return .init(sequence: UInt32(i), sample: MotionSample(timestampMicros: t, attitude: Attitude(roll: 0, pitch: 0, yaw: Double(i) * 0.01),
                                                               gyro: Vector3(x: 0, y: 0, z: 1), buttons: .none))
    }
    static func at(_ micros: Int64) -> Instant { Instant(nanoseconds: (5_000_000 + micros) * 1000) }

    /// The page alternates between two sockets; one of them loses a segment and TCP hands
    /// over what it held back 200 ms later, while the other keeps delivering on time: every
    /// on-time frame passes at once, the late ones are stale, nothing older is injected.
    @Test func aStalledSocketsBacklogIsStaleWhileTheOtherCarriesOn() {
        var intake = NewestWinsIntake()
        var injected: [UInt32] = []
        var arrivals: [(Int64, Int)] = []
        for i in 0..<120 {
            let sent = 1_000_000 + Int64(i) * Self.interval
            let stalled = i >= 30 && i < 42 && i % 2 == 0     // lane A: held from frame 30 until 230 ms later
            arrivals.append((stalled ? 1_000_000 + 30 * Self.interval + 200_000 : sent + 1_000, i))
        }
        for (t, i) in arrivals.sorted(by: { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }) {
            for case let .motion(sample, _, frames) in intake.motion(Self.frame(i), now: Self.at(t)) {
                #expect(frames == 1, "frame \(i): on-time frames pass through, nothing is merged")
                injected.append(UInt32((sample.timestampMicros - 1_000_000) / UInt64(Self.interval)))
            }
        }
        #expect(injected == injected.sorted(), "never an older frame after a newer one")
        #expect(injected.count == 120 - 6 && intake.counters.stale == 6 && intake.counters.bursts == 0)
        #expect(Set(injected).isDisjoint(with: [30, 32, 34, 36, 38, 40]))
    }

    /// A copy of a frame on both sockets (the page's nudge) is injected once.
    @Test func aFrameSentOnBothSocketsIsInjectedOnce() {
        var intake = NewestWinsIntake()
        var count = 0
        for i in 0..<30 {
            let t = 1_000_000 + Int64(i) * Self.interval + 1_000
            count += intake.motion(Self.frame(i), now: Self.at(t)).count
            count += intake.motion(Self.frame(i), now: Self.at(t + 300)).count
        }
        #expect(count == 30 && intake.counters.stale == 30)
    }
}

extension Result where Success == (token: UInt64, core: String, replaced: [String]), Failure == WebLiveSessions<String, String>.LaneRefusal {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case let (.failure(x), .failure(y)): x == y
        case let (.success(x), .success(y)): x.token == y.token && x.core == y.core && x.replaced == y.replaced
        default: false
        }
    }
}
