import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Motion the host was late for is merged, never dropped: a backlog of a pad's samples
/// becomes a few steps that move the pointer as far as every sample would have, its button
/// edges kept in order, and a stall's backlog stays short with its rotation kept.
@Suite struct LateMotionTests {
    /// Linear FPS settings: the pointer's counts are the rotation's (no smoothing or
    /// acceleration curve), so merged and replayed motion compare exactly.
    static func mapper() -> GyroMouseMapper {
        var settings = FPSSettings()
        settings.fastSensitivity = settings.slowSensitivity
        settings.tightening = 0
        settings.smoothThreshold = 0
        return GyroMouseMapper(settings: settings)
    }

    /// A pad at 66.7 reports/s (every 15 ms), three samples a report 5 ms apart (as
    /// hid-nintendo sends a Switch Pro Controller's), turning at `yaw` °/s, for `seconds`.
    static func pad(seconds: Double, from start: UInt64 = 1_000_000, yaw: (Int) -> Double = { _ in 90 }) -> [LateMotion.Event] {
        (0..<Int(seconds * 200)).map { i in .sample(gyroSample(start + UInt64(i) * 5_000, yawRate: yaw(i))) }
    }

    /// The counts a mapper gives for the events' samples, in order.
    static func counts(_ events: [LateMotion.Event], after last: MotionSample? = nil) -> Int {
        var m = mapper()
        if let last { _ = m.update(last, attitude: nil, screen: fullHD) }
        return events.reduce(0) { sum, e in
            guard case .sample(let s) = e else { return sum }
            return sum + m.update(s, attitude: nil, screen: fullHD).dx
        }
    }

    @Test func aLoopThreeSecondsBehindAPadStillMovesTheWholeTurn() {
        // The turn: speeding up and slowing down, so a merge that kept only the newest rate
        // (or one step's worth) would not come out right.
        let backlog = Self.pad(seconds: 3) { i in 30 + 120 * Double(i % 200) / 200 }
        let turn = Self.counts(backlog)
        let (merged, n) = LateMotion.merge(backlog)
        #expect(abs(turn) > 1000)
        #expect(abs(Self.counts(merged) - turn) <= abs(turn) / 100, "merged \(Self.counts(merged)) of \(turn)")
        // 2.9 s late in 0.1 s steps, then the newest 0.1 s as it came.
        #expect(merged.count <= 30 + 21 && n == backlog.count - merged.count, "\(merged.count) steps")
    }

    @Test func aLoopOnTimeChangesNothing() {
        let read = Self.pad(seconds: 0.015)                   // one report's three samples
        #expect(LateMotion.merge(read).events == read)
        #expect(LateMotion.merge(read).merged == 0)
    }

    @Test func aPressAndReleaseInsideTheBacklogClickOnceInOrder() {
        var backlog = Self.pad(seconds: 2)
        backlog.insert(.button(.a, isDown: true), at: 100)
        backlog.insert(.button(.a, isDown: false), at: 103)    // a 15 ms click
        let (merged, _) = LateMotion.merge(backlog)
        let edges = merged.filter { !$0.isSample }
        #expect(edges == [.button(.a, isDown: true), .button(.a, isDown: false)])
        // Where the hand was: the motion before the press is all before it.
        let press = merged.firstIndex(of: .button(.a, isDown: true))!
        #expect(Self.counts(Array(merged[..<press])) == Self.counts(Array(backlog[..<100])))
        #expect(abs(Self.counts(merged) - Self.counts(backlog)) <= 1)
    }

    /// A 15 ms touch inside a late backlog (a local pad's touchpad, or any sample that carries
    /// fingers): it reaches the pad as a touch down where the finger came down and a lift after
    /// it, in order, as a button's press and release do; the motion is all still there.
    @Test func aTouchInsideTheBacklogReachesThePadAsEdgesInOrder() {
        var backlog = Self.pad(seconds: 2)
        for i in 103..<106 {                                   // inside a 0.1 s step, not at its end
            guard case .sample(var s) = backlog[i] else { continue }
            s.touch = TouchState(first: .init(id: 7, x: Float(i - 103) / 10, y: 0.5), second: nil)
            backlog[i] = .sample(s)
        }
        let (merged, _) = LateMotion.merge(backlog)
        let fingers: [UInt8?] = merged.compactMap { e in if case let .sample(s) = e { s } else { nil } }.map { $0.touch?.first?.id }
        let edges = zip(fingers, fingers.dropFirst()).filter { $0 != $1 }.map(\.1)
        #expect(edges == [7, nil], "down, then up: \(fingers.count) samples")
        let down = merged.first { if case let .sample(s) = $0 { s.touch != nil } else { false } }
        if case let .sample(s)? = down { #expect(s.touch?.first?.x == 0, "down where it came down") }
        #expect(abs(Self.counts(merged) - Self.counts(backlog)) <= 1)
    }

    @Test func aStallLongerThanTheBoundIsShortAndKeepsThePointersIntegral() {
        let last = gyroSample(995_000, yawRate: 90)
        let backlog = Self.pad(seconds: 20) { i in i < 2_000 ? 90 : -45 }
        let turn = Self.counts(backlog, after: last)
        let (merged, _) = LateMotion.merge(backlog)
        #expect(abs(Self.counts(merged, after: last) - turn) <= abs(turn) / 100, "merged \(Self.counts(merged, after: last)) of \(turn)")
        // The first sample as it came, the stall's 15 s as two, then 5 s in 0.1 s steps: bounded by the bound.
        #expect(merged.count <= 3 + 50 + 21, "\(merged.count) steps")
    }

    @Test func aGapInTheBacklogIsNotBridged() {
        // 1 s of samples, 2 s of nothing (the pad was off), 1 s more: the mapper starts again
        // after the gap, as it would have.
        let backlog = Self.pad(seconds: 1) + Self.pad(seconds: 1, from: 4_000_000)
        #expect(abs(Self.counts(LateMotion.merge(backlog).events) - Self.counts(backlog)) <= 2)
    }

    @Test func remergingAMergedBacklogChangesNothing() {
        let (once, _) = LateMotion.merge(Self.pad(seconds: 8))
        let (twice, n) = LateMotion.merge(once)
        #expect(abs(Self.counts(twice) - Self.counts(once)) <= 1 && n <= 1)
    }
}
