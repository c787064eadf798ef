import RemotionProtocol
import RemotionHostLogic
import Testing

@Suite struct HeldInputTrackerTests {
    let s1 = SessionID(1), s2 = SessionID(2)

    @Test func motionAndWheelPassThrough() {
        var t = HeldInputTracker()
        #expect(t.filter(.moveTo(x: 1, y: 2), session: s1) == .moveTo(x: 1, y: 2))
        #expect(t.filter(.wheel(dx: 0, dy: 1), session: s1) == .wheel(dx: 0, dy: 1))
        #expect(t.held.isEmpty)
    }

    @Test func duplicatePressAndUnheldReleaseAreDropped() {
        var t = HeldInputTracker()
        #expect(t.filter(.button(.left, down: true), session: s1) == .button(.left, down: true))
        #expect(t.filter(.button(.left, down: true), session: s1) == nil)
        #expect(t.filter(.key(.left, down: false), session: s1) == nil)
        #expect(t.filter(.button(.left, down: false), session: s1) == .button(.left, down: false))
        #expect(t.filter(.button(.left, down: false), session: s1) == nil)
        #expect(t.down.isEmpty)
    }

    @Test func sharedInputIsReleasedByTheLastHolder() {
        var t = HeldInputTracker()
        #expect(t.filter(.key(.shift, down: true), session: s1) == .key(.shift, down: true))
        #expect(t.filter(.key(.shift, down: true), session: s2) == nil)
        #expect(t.held == [s1: [.key(.shift)], s2: [.key(.shift)]])
        #expect(t.filter(.key(.shift, down: false), session: s1) == nil)
        #expect(t.isDown(.key(.shift)))
        #expect(t.filter(.key(.shift, down: false), session: s2) == .key(.shift, down: false))
        #expect(!t.isDown(.key(.shift)))
    }

    @Test func endSessionReleasesOnlyWhatNobodyElseHolds() {
        var t = HeldInputTracker()
        _ = t.filter(.button(.left, down: true), session: s1)
        _ = t.filter(.key(.control, down: true), session: s1)
        _ = t.filter(.button(.left, down: true), session: s2)
        #expect(t.endSession(s1) == [.key(.control, down: false)])
        #expect(t.held == [s2: [.mouse(.left)]])
        #expect(t.endSession(s1) == [])
        #expect(t.endSession(s2) == [.button(.left, down: false)])
        #expect(t.down.isEmpty)
    }

    @Test func releaseAllReleasesEachInputOnceInStableOrder() {
        var t = HeldInputTracker()
        _ = t.filter(.key(.letter("a"), down: true), session: s2)
        _ = t.filter(.button(.right, down: true), session: s2)
        _ = t.filter(.button(.right, down: true), session: s1)
        let released = t.releaseAll()
        #expect(released.map(\.event) == [.button(.right, down: false), .key(.letter("a"), down: false)])
        #expect(released.map(\.session) == [s1, s2])
        #expect(t.held.isEmpty && t.releaseAll().isEmpty)
    }
}
