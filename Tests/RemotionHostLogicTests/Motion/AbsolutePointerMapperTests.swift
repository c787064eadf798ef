import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct SeedPointerMapperTests {
    /// Pixels per radian at sensitivity 1 on full HD: 1920 px over 60° of yaw.
    let ppr = 1920 / (Double.pi / 3)

    @Test func yawZeroIsTheCentreAndFirstUpdateHasNoDelta() {
        var m = SeedPointerMapper()
        let out = m.update(attitude(), screen: fullHD)
        #expect(out == PointerOutput(moveTo: (960, 540), moveBy: (0, 0)))
        #expect(m.centerAngle == .pi)
    }

    @Test func yawMovesXAndPitchMovesY() {
        var m = SeedPointerMapper()
        _ = m.update(attitude(), screen: fullHD)
        // Turning left (yaw grows) moves left; tilting up (pitch grows) moves up.
        let out = m.update(attitude(pitch: 0.05, yaw: 0.1), screen: fullHD)
        let x = 960 - 0.1 * ppr, y = 540 - 0.05 * ppr
        #expect(out.moveTo! == (Int(x.rounded()), Int(y.rounded())))
        #expect(out.moveBy == (Int((x - 960).rounded()), Int((y - 540).rounded())))
    }

    @Test func sensitivityScalesTheMapping() {
        var m = SeedPointerMapper(sensitivity: 2)
        let out = m.update(attitude(yaw: -0.1), screen: fullHD)
        #expect(out.moveTo!.x == Int((960 + 0.2 * ppr).rounded()))
    }

    @Test func rollBeyondSixHundredthsAddsTurningDelta() {
        var m = SeedPointerMapper()
        _ = m.update(attitude(), screen: fullHD)
        // 0.16 rad: 0.1 beyond the turning threshold, below the centre setter.
        for _ in 0..<5 {
            let out = m.update(attitude(roll: 0.16), screen: fullHD)
            #expect(out.moveTo! == (960, 540))           // position does not move
            #expect(out.moveBy == (2, 0))                 // 0.1 · kMotionInjectorTurn(20)
        }
        #expect(m.update(attitude(roll: -0.16), screen: fullHD).moveBy == (-2, 0))
        // Inside the dead zone the turning delta is zero again.
        #expect(m.update(attitude(roll: 0.05), screen: fullHD).moveBy == (0, 0))
        #expect(m.turningAngle == 0)
        var fast = SeedPointerMapper(sensitivity: 3)
        _ = fast.update(attitude(), screen: fullHD)
        #expect(fast.update(attitude(roll: 0.16), screen: fullHD).moveBy == (6, 0))
    }

    @Test func heavyRollDriftsTheCentre() {
        var m = SeedPointerMapper()
        _ = m.update(attitude(), screen: fullHD)
        var lastX = 960
        for i in 1...100 {
            let out = m.update(attitude(roll: 0.5), screen: fullHD)
            let expectedCentre = Double.pi + Double(i) * 0.3 / 100
            #expect(abs(m.centerAngle - expectedCentre) < 1e-9)
            #expect(out.moveTo!.x >= lastX)
            lastX = out.moveTo!.x
        }
        #expect(lastX == Int((960 + 0.3 * ppr).rounded()))
        // Heavy roll the other way brings it back; light roll leaves it alone.
        for _ in 1...100 { _ = m.update(attitude(roll: -0.5), screen: fullHD) }
        #expect(abs(m.centerAngle - .pi) < 1e-9)
        _ = m.update(attitude(roll: 0.19), screen: fullHD)
        #expect(abs(m.centerAngle - .pi) < 1e-9)
    }

    @Test func bordersClampTwoPixelsInside() {
        var m = SeedPointerMapper()
        #expect(m.update(attitude(pitch: 1.0, yaw: -1.0), screen: fullHD).moveTo! == (1917, 2))
        #expect(m.update(attitude(pitch: -1.0, yaw: 1.0), screen: fullHD).moveTo! == (2, 1077))
        // The relative delta is not clamped (games still see the motion).
        #expect(m.update(attitude(pitch: -1.0, yaw: 1.1), screen: fullHD).moveBy.dx == Int((-0.1 * ppr).rounded()))
        var tiny = SeedPointerMapper()
        #expect(tiny.update(attitude(yaw: 1), screen: ScreenGeometry(width: 3, height: 3)).moveTo! == (1, 1))
        #expect(tiny.update(attitude(), screen: ScreenGeometry(width: 0, height: 0)) == .none)
    }

    @Test func yawWrapsAroundAtPi() {
        var m = SeedPointerMapper()
        _ = m.update(attitude(yaw: .pi - 0.05), screen: fullHD)
        m.recenter()
        #expect(m.update(attitude(yaw: .pi - 0.05), screen: fullHD).moveTo! == (960, 540))
        // 0.1 rad further left, across the seam: a small move left, not a jump.
        let out = m.update(attitude(yaw: -.pi + 0.05), screen: fullHD)
        #expect(out.moveTo!.x == Int((960 - 0.1 * ppr).rounded()))
        #expect(out.moveBy.dx == Int((-0.1 * ppr).rounded()))
    }

    @Test func recenterMakesTheCurrentDirectionTheCentreWithoutAJump() {
        var m = SeedPointerMapper()
        _ = m.update(attitude(), screen: fullHD)
        #expect(m.update(attitude(pitch: 0.4, yaw: 0.6), screen: fullHD).moveTo! == (2, 2))
        m.recenter()
        let out = m.update(attitude(pitch: 0.4, yaw: 0.6), screen: fullHD)
        #expect(out == PointerOutput(moveTo: (960, 540), moveBy: (0, 0)))
        #expect(abs(m.centerAngle - (0.6 + .pi)) < 1e-12)
        #expect(m.update(attitude(pitch: 0.4, yaw: 0.5), screen: fullHD).moveTo!.x == Int((960 + 0.1 * ppr).rounded()))
    }

    @Test func nonFiniteAttitudeIsIgnored() {
        var m = SeedPointerMapper()
        #expect(m.update(attitude(yaw: .nan), screen: fullHD) == .none)
        #expect(m.update(attitude(), screen: fullHD).moveTo! == (960, 540))
    }
}

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
