import Testing
import RemotionCore
@testable import RemotionMotion

@Suite struct PointerModeMapperTests {
    @Test func firstSampleIsTheCentre() {
        var m = PointerModeMapper()
        #expect(m.update(attitude(pitch: 0.3, yaw: 1.2), screen: fullHD) == PointerOutput(moveTo: (960, 540)))
        #expect(m.centerYaw == 1.2)
        #expect(m.centerPitch == 0.3)
    }

    @Test func fieldOfViewSpansTheScreen() {
        var m = PointerModeMapper()          // 40° × 25°
        _ = m.update(attitude(), screen: fullHD)
        // A quarter of the horizontal FOV to the right: a quarter screen right.
        #expect(m.update(attitude(yaw: deg(-10)), screen: fullHD).moveTo! == (1440, 540))
        // A quarter of the vertical FOV up: a quarter screen up.
        #expect(m.update(attitude(pitch: deg(6.25)), screen: fullHD).moveTo! == (960, 270))
        // Half the FOV reaches the edge, clamped 2 px inside.
        #expect(m.update(attitude(pitch: deg(-12.5), yaw: deg(20)), screen: fullHD).moveTo! == (2, 1077))
        var wide = PointerSettings()
        wide.fovX = 80
        var w = PointerModeMapper(settings: wide)
        _ = w.update(attitude(), screen: fullHD)
        #expect(w.update(attitude(yaw: deg(-10)), screen: fullHD).moveTo!.x == 1200)
        var sensitive = PointerModeMapper(sensitivity: 2)
        _ = sensitive.update(attitude(), screen: fullHD)
        #expect(sensitive.update(attitude(yaw: deg(-10)), screen: fullHD).moveTo!.x == 1917)
    }

    @Test func moveByFollowsTheClampedPosition() {
        var m = PointerModeMapper()
        _ = m.update(attitude(), screen: fullHD)
        #expect(m.update(attitude(yaw: deg(-10)), screen: fullHD).moveBy == (480, 0))
        #expect(m.update(attitude(yaw: deg(-90)), screen: fullHD).moveBy == (1917 - 1440, 0))
        #expect(m.update(attitude(yaw: deg(-120)), screen: fullHD).moveBy == (0, 0))
    }

    @Test func yawWrapsAroundAtPi() {
        var m = PointerModeMapper()
        _ = m.update(attitude(yaw: deg(179)), screen: fullHD)
        // 2° further left, across the seam.
        let out = m.update(attitude(yaw: deg(-179)), screen: fullHD)
        #expect(out.moveTo! == (864, 540))
        #expect(out.moveBy == (-96, 0))
        // And back right across it.
        #expect(m.update(attitude(yaw: deg(177)), screen: fullHD).moveTo! == (1056, 540))
    }

    @Test func heavyRollDriftsTheCentre() {
        var m = PointerModeMapper()
        _ = m.update(attitude(), screen: fullHD)
        // Light roll: no drift.
        for _ in 0..<10 { _ = m.update(attitude(roll: 0.15), screen: fullHD) }
        #expect(m.centerYaw == 0)
        // Roll 0.7: 0.5 beyond the threshold, 0.005 rad of centre per update.
        var out = PointerOutput.none
        for _ in 0..<10 { out = m.update(attitude(roll: 0.7), screen: fullHD) }
        #expect(abs(m.centerYaw - 0.05) < 1e-12)
        let x = 960 + 0.05 / deg(40) * 1920
        #expect(out.moveTo!.x == Int(x.rounded()))
        for _ in 0..<10 { out = m.update(attitude(roll: -0.7), screen: fullHD) }
        #expect(abs(m.centerYaw) < 1e-12)
        #expect(out.moveTo!.x == 960)
    }

    @Test func recenter() {
        var m = PointerModeMapper()
        _ = m.update(attitude(), screen: fullHD)
        #expect(m.update(attitude(pitch: 0.3, yaw: 0.8), screen: fullHD).moveTo! == (2, 2))
        m.recenter()
        let out = m.update(attitude(pitch: 0.3, yaw: 0.8), screen: fullHD)
        #expect(out.moveTo! == (960, 540))
        #expect(out.moveBy == (958, 538))
        #expect(m.update(attitude(pitch: 0.3, yaw: 0.8 - deg(10)), screen: fullHD).moveTo! == (1440, 540))
    }
}
