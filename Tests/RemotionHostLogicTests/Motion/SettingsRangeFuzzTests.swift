import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Every `[mapping]` setting walked over its range and past it (bounds, values just
/// outside, random values, NaN, ±inf, ±1e±300, negative): a value outside the range is
/// refused and leaves the settings unchanged; with whatever was accepted, the motion and
/// touchpad mappers fed absurd samples and deltas never trap and never emit more than a
/// bounded number of events per message (`touchpad.scroll_step = 1e-300`
/// trapped the host on the next scroll, 1e-6 looped over billions of wheel steps).
@Suite struct SettingsRangeFuzzTests {
    static let extremes: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e-300, -1e-300,
                                     0, -0.0, -1, 1e-6, .greatestFiniteMagnitude, .leastNonzeroMagnitude]

    /// Candidate texts for one numeric key: its bounds, just outside them, extremes, random.
    static func candidates(_ rule: NumberRule, _ rng: inout SplitMix64) -> [String] {
        var values = extremes + [rule.low, rule.high, rule.low.nextDown, rule.high.nextUp,
                                 rule.low.nextUp, rule.high.nextDown, -rule.high]
        for _ in 0..<20 { values.append(rule.low + (rule.high - rule.low) * rng.nextUnit()) }
        for _ in 0..<5 { values.append((rng.nextUnit() - 0.5) * pow(10, 600 * rng.nextUnit() - 300)) }
        return values.map { "\($0)" } + ["1e-300", "1e300", "nan", "inf", "-inf", "", "x"]
    }

    @Test func outOfRangeValuesAreRefusedAndInRangeOnesAccepted() throws {
        var rng = SplitMix64(seed: 25_5)
        for field in MappingSettings.fields {
            guard let rule = field.rule else { continue }
            for text in Self.candidates(rule, &rng) {
                var s = MappingSettings()
                let before = s
                let x = Double(text)
                let inside = x.map { $0.isFinite && (rule.lowInclusive ? $0 >= rule.low : $0 > rule.low) && $0 <= rule.high } ?? false
                do {
                    try s.set(field.key, to: text)
                    #expect(inside, "\(field.key) accepted \(text)")
                } catch {
                    #expect(!inside, "\(field.key) refused \(text): \(error)")
                    #expect(s == before)
                }
            }
        }
    }

    @Test func scrollStepBelowOnePixelIsRefused() {
        var s = MappingSettings()
        for bad in ["1e-300", "1e-6", "0.5", "0"] {
            #expect(throws: MappingSettingError.self) { try s.set("touchpad.scroll_step", to: bad) }
        }
        #expect(s.touchpad.scrollPixels == 24)
    }

    @Test func mappersNeverTrapAndStayBoundedAtEveryExtremeOfEverySetting() throws {
        var rng = SplitMix64(seed: 0x25_05)
        let screens = [fullHD, ScreenGeometry(width: 0, height: 0), ScreenGeometry(width: 1, height: 1),
                       ScreenGeometry(width: 100_000, height: 100_000)]
        let deltas: [Double] = [0, 1, -1, 1e-300, 1e300, -1e300, .nan, .infinity, WebInputMessage.maxDelta,
                                -WebInputMessage.maxDelta, 2.4, 1e6]
        var checked = 0
        for field in MappingSettings.fields {
            let texts = field.rule.map { r in [r.low, r.high, r.low.nextUp, r.high.nextDown].map { "\($0)" } }
                ?? ["pointer", "fps", "seed"].filter { _ in field.key == "mode" }
            for text in texts {
                var settings = MappingSettings()
                for mode in ["pointer", "fps", "seed"] {
                    try settings.set("mode", to: mode)
                    try? settings.set(field.key, to: text)
                    var mapper = MotionMapper(settings: settings)
                    var micros: UInt64 = 1_000_000
                    for i in 0..<40 {
                        micros &+= [0, 1, 16_666, 1_000_000_000, UInt64.max / 2][i % 5]
                        let f = Float(Self.extremes[i % Self.extremes.count])
                        let g = Float((rng.nextUnit() - 0.5) * 1e6)
                        let sample = MotionSample(timestampMicros: micros,
                                                  attitude: Attitude(roll: Double(f), pitch: Double(g), yaw: rng.nextUnit() * 1e300),
                                                  gyro: Vector3(x: g, y: f, z: -g))
                        let out = mapper.update(sample, screen: screens[i % screens.count])
                        #expect(out.events.count <= 1)
                        #expect(abs(out.moveBy.dx) <= 1_000_000_000 && abs(out.moveBy.dy) <= 1_000_000_000)
                        checked += 1
                    }
                }
                var pad = TouchpadMapper(settings: settings.touchpad)
                for (i, d) in deltas.enumerated() {
                    let w = pad.scroll(dx: d, dy: -deltas[(i + 3) % deltas.count])
                    #expect(abs(w.dx) <= TouchpadMapper.maxWheelSteps && abs(w.dy) <= TouchpadMapper.maxWheelSteps)
                    let m = pad.move(dx: d, dy: deltas[(i + 5) % deltas.count], millis: [0, 1, 16, .nan][i % 4])
                    #expect(abs(m.dx) <= TouchpadMapper.maxPixels && abs(m.dy) <= TouchpadMapper.maxPixels)
                    checked += 2
                }
            }
        }
        #expect(checked > 1000)
    }

    /// The settings the old rule accepted, set directly in code: the mapper itself holds.
    @Test func touchpadHoldsEvenWithATinyStepSetInCode() {
        for step in [1e-300, 1e-6, 0, -5, .nan, .infinity] {
            var settings = TouchpadMapper.Settings()
            settings.scrollPixels = step
            var pad = TouchpadMapper(settings: settings)
            let w = pad.scroll(dx: 0, dy: 100)
            #expect(abs(w.dy) <= TouchpadMapper.maxWheelSteps, "\(step)")
        }
        var pad = TouchpadMapper()
        #expect(pad.scroll(dx: 0, dy: 24 * 1000).dy == TouchpadMapper.maxWheelSteps)
        #expect(pad.scroll(dx: 0, dy: 0).dy == 0, "the capped rest is dropped, not replayed")
    }
}
