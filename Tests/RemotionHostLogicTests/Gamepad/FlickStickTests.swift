import Foundation
import RemotionHostLogic
import RemotionProtocol
import Testing

/// Flick stick on virtual time: a flick turns by the stick's angle over the flick time, the
/// held stick turns one to one, and nothing turns below the threshold or after a reset.
@Suite struct FlickStickTests {
    let settings = FlickStick.Settings(countsPerTurn: 3600)   // 10 counts per degree
    let t0 = Instant.milliseconds(1_000)

    /// Runs a flick to its end through its deadlines; the counts of each call.
    func drain(_ f: inout FlickStick, from first: FlickStick.Output) -> [Int32] {
        var out = [first.counts]
        var next = first.nextDeadline
        while let deadline = next {
            let o = f.advance(to: deadline)
            out.append(o.counts)
            next = o.nextDeadline
            if out.count > 1_000 { break }
        }
        return out
    }

    func point(_ degrees: Float, _ magnitude: Float = 1) -> (x: Float, y: Float) {
        let r = degrees * .pi / 180
        return (sin(r) * magnitude, -cos(r) * magnitude)   // up is −y
    }

    @Test func aPushRightTurnsAQuarterOverTheFlickTimeOnTheTicks() {
        var f = FlickStick(settings)
        let first = f.stick(x: 1, y: 0, at: t0)
        #expect(first.counts == 0, "the flick starts at its own time: nothing has turned yet")
        #expect(first.nextDeadline == t0 + .milliseconds(4))
        let half = f.advance(to: t0 + .milliseconds(50))
        #expect(half.counts == 450, "half the time, half the quarter turn: \(half.counts)")
        let rest = drain(&f, from: f.advance(to: t0 + .milliseconds(54)))
        #expect(450 + rest.reduce(0, +) == 900, "a quarter of 3600: \(rest)")
        #expect(rest.count == 13, "54 ms, then a call every 4 ms to 98 and the end at 100: \(rest.count)")
        #expect(f.advance(to: t0 + .milliseconds(500)) == .init(counts: 0, nextDeadline: nil), "done")
    }

    @Test func pushingLeftTurnsLeftAndDownTurnsHalfway() {
        var left = FlickStick(settings)
        #expect(drain(&left, from: left.stick(x: -1, y: 0, at: t0)).reduce(0, +) == -900)
        var down = FlickStick(settings)
        #expect(abs(drain(&down, from: down.stick(x: 0, y: 1, at: t0)).reduce(0, +)) == 1800)
    }

    @Test func theHeldStickTurnsOneToOneThroughTheBottom() {
        var f = FlickStick(Settings(countsPerTurn: 3600, flickTime: .zero))
        let p = point(170)
        #expect(f.stick(x: p.x, y: p.y, at: t0).counts == 1700, "a flick time of 0 turns at once")
        var total: Int32 = 0
        for (i, degrees) in stride(from: Float(172), through: 190, by: 2).enumerated() {   // through ±180°
            let q = point(degrees)
            total += f.stick(x: q.x, y: q.y, at: t0 + .milliseconds(Int64(4 * (i + 1)))).counts
        }
        #expect(abs(total - 200) <= 1, "20° more, not −340°: \(total)")
    }

    @Test func belowTheThresholdNothingTurnsAndAHeldStickHasHysteresis() {
        var f = FlickStick(settings)
        let small = point(90, 0.85)
        #expect(f.stick(x: small.x, y: small.y, at: t0) == .init(counts: 0, nextDeadline: nil), "0.85 < 0.9 starts nothing")
        _ = drain(&f, from: f.stick(x: 1, y: 0, at: t0 + .milliseconds(10)))
        let held = point(100, 0.85)
        #expect(f.stick(x: held.x, y: held.y, at: t0 + .milliseconds(200)).counts == 100,
                "engaged, 0.85 still turns: 10° = 100 counts")
        let released = point(180, 0.5)
        #expect(f.stick(x: released.x, y: released.y, at: t0 + .milliseconds(210)).counts == 0, "let go: nothing")
        #expect(f.stick(x: .nan, y: 0, at: t0 + .milliseconds(220)) == .init(counts: 0, nextDeadline: nil))
    }

    @Test func theForwardDeadzoneAndSnapShapeOnlyTheFlick() {
        var dz = FlickStick(Settings(countsPerTurn: 3600, flickTime: .zero, forwardDeadzoneDegrees: 15))
        let near = point(10)
        #expect(dz.stick(x: near.x, y: near.y, at: t0).counts == 0, "10° is within the forward deadzone")
        let turned = point(40)
        #expect(dz.stick(x: turned.x, y: turned.y, at: t0 + .milliseconds(4)).counts == 300, "rotation still turns")
        var snap = FlickStick(Settings(countsPerTurn: 3600, flickTime: .zero, snap: .four))
        let sixty = point(60)
        #expect(snap.stick(x: sixty.x, y: sixty.y, at: t0).counts == 900, "60° snaps to 90°")
        var eight = FlickStick(Settings(countsPerTurn: 3600, flickTime: .zero, snap: .eight))
        let thirty = point(-30)
        #expect(eight.stick(x: thirty.x, y: thirty.y, at: t0).counts == -450, "−30° snaps to −45°")
    }

    @Test func aNewFlickFinishesTheOldOneAndAResetStopsIt() {
        var f = FlickStick(settings)
        _ = f.stick(x: 1, y: 0, at: t0)
        let part = f.advance(to: t0 + .milliseconds(20)).counts   // 180 of 900
        let letGo = f.stick(x: 0, y: 0, at: t0 + .milliseconds(24)).counts   // mid-flick: it runs on
        #expect(letGo == 36)
        let second = f.stick(x: 1, y: 0, at: t0 + .milliseconds(28))
        let rest = drain(&f, from: second)
        #expect(part + letGo + rest.reduce(0, +) == 1800, "the first flick's rest at once, then a second quarter: \(part) \(rest)")
        var r = FlickStick(settings)
        _ = r.stick(x: 1, y: 0, at: t0)
        r.reset()
        #expect(r.advance(to: t0 + .milliseconds(50)) == .init(counts: 0, nextDeadline: nil), "a reset turns nothing more")
    }

    @Test func settingsAreChecked() {
        #expect(Settings(countsPerTurn: 3600).problem == nil)
        #expect(Settings(countsPerTurn: 0).problem != nil)
        #expect(Settings(countsPerTurn: 3600, flickTime: .seconds(2)).problem != nil)
        #expect(Settings(countsPerTurn: 3600, threshold: 0.1).problem != nil)
        #expect(Settings(countsPerTurn: 3600, forwardDeadzoneDegrees: 90).problem != nil)
    }

    typealias Settings = FlickStick.Settings
}
