import RemotionHostLogic
import RemotionProtocol
import Testing

/// The host's decoder against the same golden bytes the page's encoder is checked
/// against (Sources/App/Web/Page/app/selftest.js): both ends agree on every byte.
@Suite struct WebFramesTests {
    static func bytes(_ hex: String) -> [UInt8] {
        hex.split(whereSeparator: \.isWhitespace).map { UInt8($0, radix: 16)! }
    }

    @Test func motionGoldenDecodes() throws {
        let golden = Self.bytes("""
            01 0f 05 00 05 00 00 00  00 00 00 00 00 40 8f 40
            00 00 00 3f  00 00 80 be  00 00 80 3f   00 00 80 3f  00 00 00 c0  00 00 00 3f
            00 00 00 00  00 00 00 00  00 00 80 3f
            """)
        guard case let .motion(m) = try WebFrame.decode(golden) else { Issue.record("not motion"); return }
        #expect(m.sequence == 5 && m.timeMillis == 1000 && m.clutch)
        #expect(m.buttons == ButtonSet([.a, .c]))
        #expect(m.attitude == Attitude(roll: 0.5, pitch: -0.25, yaw: 1))
        #expect(m.gyro == Vector3(x: 1, y: -2, z: 0.5))
        #expect(m.acceleration == Vector3(x: 0, y: 0, z: 1))
        #expect(m.sample.timestampMicros == 1_000_000)
    }

    @Test func blocksWithoutTheirFlagAreAbsent() throws {
        let bare = Self.bytes("01 00 00 80 ff ff ff ff") + [UInt8](repeating: 0, count: 44)
        guard case let .motion(m) = try WebFrame.decode(bare) else { Issue.record("not motion"); return }
        #expect(m.attitude == nil && m.gyro == nil && m.acceleration == nil)
        #expect(m.buttons == ButtonSet([.p]) && m.sequence == UInt32.max)
    }

    /// The Gamepad mode's frame: flag bit 4 and 12 more bytes (the same golden as the page's
    /// self-check: left stick full right and up, right stick full up, R2 full).
    @Test func analogGoldenDecodesAndItsLengthFollowsTheFlag() throws {
        let golden = Self.bytes("01 10 00 00 01 00 00 00") + [UInt8](repeating: 0, count: 44)
            + Self.bytes("ff 7f 01 80 00 00 01 80  00 00 ff ff")
        guard case let .motion(m) = try WebFrame.decode(golden) else { Issue.record("not motion"); return }
        #expect(m.analog == AnalogState(leftX: 1, leftY: -1, rightX: 0, rightY: -1, leftTrigger: 0, rightTrigger: 1))
        var lowest = golden
        lowest[58...59] = [0x00, 0x80]
        guard case let .motion(l) = try WebFrame.decode(lowest) else { Issue.record("not motion"); return }
        #expect(l.analog?.rightY == -1, "−32768 (never written by the page) reads as −1")
        #expect(m.sample.analog == m.analog, "the sample carries it to the host (pad, flick stick)")
        #expect(throws: WebFrameError.badLength(type: 1, length: 52)) { try WebFrame.decode(Array(golden.prefix(52))) }
        var noFlag = golden
        noFlag[1] = 0
        #expect(throws: WebFrameError.badLength(type: 1, length: 64)) { try WebFrame.decode(noFlag) }
    }

    /// The Gamepad mode's touchpad (flag 0x20): after the analog block when there is one, else
    /// right after the base; a finger up is absent whatever its other bytes say.
    @Test func touchGoldenDecodesAfterTheAnalogBlockOrAlone() throws {
        let touch = Self.bytes("83 00 ff 7f 00 00  05 00 ff ff ff ff")   // finger 3 at (½, 0); finger 5 up
        let alone = Self.bytes("01 20 00 00 01 00 00 00") + [UInt8](repeating: 0, count: 44) + touch
        guard case let .motion(a) = try WebFrame.decode(alone) else { Issue.record("not motion"); return }
        #expect(a.analog == nil)
        #expect(a.touch?.first?.id == 3 && abs((a.touch?.first?.x ?? 0) - 0.5) < 1e-4 && a.touch?.first?.y == 0)
        #expect(a.touch?.second == nil && a.sample.touch == a.touch)
        let both = Self.bytes("01 30 00 00 01 00 00 00") + [UInt8](repeating: 0, count: 44)
            + Self.bytes("ff 7f 01 80 00 00 01 80  00 00 ff ff") + Self.bytes("81 00 ff ff ff ff  82 00 00 00 00 00")
        guard case let .motion(b) = try WebFrame.decode(both) else { Issue.record("not motion"); return }
        #expect(b.analog?.leftX == 1)
        #expect(b.touch == TouchState(first: .init(id: 1, x: 1, y: 1), second: .init(id: 2, x: 0, y: 0)))
        // The page keeps a finger in its slot: the second alone, when the first has lifted.
        let second = Self.bytes("01 20 00 00 01 00 00 00") + [UInt8](repeating: 0, count: 44)
            + Self.bytes("00 00 00 00 00 00  85 00 ff ff 00 80")
        guard case let .motion(s) = try WebFrame.decode(second) else { Issue.record("not motion"); return }
        #expect(s.touch?.first == nil && s.touch?.second?.id == 5 && s.touch?.second?.x == 1)
        let none = Self.bytes("01 20 00 00 01 00 00 00") + [UInt8](repeating: 0, count: 56)
        guard case let .motion(n) = try WebFrame.decode(none) else { Issue.record("not motion"); return }
        #expect(n.touch == TouchState.none, "the block with no finger down: the page's touchpad, untouched")
        #expect(throws: WebFrameError.badLength(type: 1, length: 64)) { try WebFrame.decode(Array(both.prefix(64))) }
        #expect(throws: WebFrameError.badLength(type: 1, length: 76)) {
            var noTouchFlag = both
            noTouchFlag[1] = 0x10
            return try WebFrame.decode(noTouchFlag)
        }
    }

    @Test func buttonAndPingGoldens() throws {
        #expect(try WebFrame.decode(Self.bytes("02 02 01 00 05 00 00 00")) == .button(.c, isDown: true, state: ButtonSet([.a, .c])))
        #expect(try WebFrame.decode(Self.bytes("02 0f 00 00 00 00 00 00")) == .button(.p, isDown: false, state: .none))
        let ping = Self.bytes("03 00 0d 00 04 03 02 01 00 00 00 00 00 00 f8 3f")
        #expect(try WebFrame.decode(ping) == .ping(nonce: 0x0102_0304, pageTimeMillis: 1.5, rttTenthsMillis: 13))
        #expect(WebFrame.pong(echoing: ping) == [0x83] + ping.dropFirst())
    }

    @Test func malformedFramesAreTypedErrorsNeverTraps() {
        #expect(throws: WebFrameError.empty) { try WebFrame.decode([UInt8]()) }
        #expect(throws: WebFrameError.unknownType(9)) { try WebFrame.decode([9, 0, 0]) }
        #expect(throws: WebFrameError.badLength(type: 1, length: 51)) { try WebFrame.decode([1] + [UInt8](repeating: 0, count: 50)) }
        #expect(throws: WebFrameError.badButton(16)) { try WebFrame.decode(Self.bytes("02 10 01 00 00 00 00 00")) }
        var nan = Self.bytes("01 01 00 00 00 00 00 00") + [UInt8](repeating: 0, count: 44)
        nan[16...19] = [0x00, 0x00, 0xc0, 0x7f]   // roll = NaN
        #expect(throws: WebFrameError.notFinite) { try WebFrame.decode(nan) }
        var rng = SplitMix64(seed: 99)
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...60, using: &rng)
            let junk = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? WebFrame.decode(junk)
        }
    }

    @Test func controlMessagesParseStrictly() {
        #expect(WebClientMessage.parse(#"{"type":"hello","v":1,"id":"ab","credential":"xyz"}"#) == .hello(version: 1, id: "ab", credential: "xyz"))
        #expect(WebClientMessage.parse(#"{"type":"command","command":"mode","mode":"fps"}"#) == .mode(.fps))
        #expect(WebClientMessage.parse(#"{"type":"command","command":"mode","mode":"seed"}"#) == nil)
        #expect(WebClientMessage.parse(#"{"type":"command","command":"recenter"}"#) == .recenter)
        #expect(WebClientMessage.parse("not json") == nil)
        #expect(WebClientMessage.parse(String(repeating: " ", count: 2000) + "{}") == nil)
        #expect(WebHostMessage.refused(reason: "full", message: "a \"b\"").text == #"{"type":"refused","reason":"full","message":"a \"b\""}"#)
        // The motion lane's hello (docs/WEB-CONTROLLER.md, "The motion lane") and its answer.
        #expect(WebClientMessage.parse(#"{"type":"lane","v":1,"id":"ab","credential":"xyz","session":"0000002a"}"#)
            == .lane(version: 1, id: "ab", credential: "xyz", session: "0000002a"))
        #expect(WebClientMessage.parse(#"{"type":"lane","v":1,"id":"ab","credential":"xyz"}"#) == nil, "no session")
        #expect(WebClientMessage.parse(#"{"type":"lane","id":"ab","credential":"xyz","session":"\#(String(repeating: "0", count: 17))"}"#) == nil)
        #expect(WebClientMessage.parse(#"{"type":"lane","id":"ab","credential":"xyz","session":7}"#) == nil)
        #expect(WebHostMessage.lane(session: "0000002a").text == #"{"type":"lane","session":"0000002a"}"#)
    }

    @Test func clockOffsetTurnsPageTimesIntoOneWayLatency() {
        var clock = WebClockOffset()
        #expect(clock.latencyMicros(sampleMillis: 10, hostNowMillis: 20) == nil, "no ping yet: not measured")
        // Page clock = host clock − 5000 ms; one-way 1 ms; RTT 2 ms. One ping was delayed.
        for (i, delay) in [1.0, 1.0, 30.0, 1.0, 1.0].enumerated() {
            let pageSend = Double(i) * 500
            clock.ping(pageTimeMillis: pageSend, rttMillis: 2, hostNowMillis: pageSend + 5000 + delay)
        }
        #expect(clock.offsetMillis == 5000)
        // A sample taken at page time 3000 handled at host time 8004 waited 4 ms.
        #expect(clock.latencyMicros(sampleMillis: 3000, hostNowMillis: 8004) == 4000)
    }
}
