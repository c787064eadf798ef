#if os(Linux)
import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import Synchronization
import Testing

/// The local pads' sessions with the real host handler and pipeline on one EmbeddedEventLoop
/// (the DSU tests' rig): the reader's notices in, injected events (a log) out.
@Suite struct LocalPadSessionsTests {
    static let key = "/dev/input/event5"
    static let name = "DualSense Wireless Controller (a0:ab:51:00:00:01)"

    /// hid-playstation's Motion Sensors node: 8192 per g, 1024 per °/s.
    static func dualSense() throws -> LocalPad {
        try LocalPad(driver: .playstation, motionAxes: Dictionary(uniqueKeysWithValues: EvdevCode.motionAxes.map {
            ($0, EvdevAbsInfo(minimum: -(1 << 22), maximum: 1 << 22, resolution: $0 <= EvdevCode.absZ ? 8192 : 1024))
        }))
    }

    /// One frame of a flat pad turning right at `yaw` °/s (the pad's ABS_RY is − for a right turn).
    static func frame(_ micros: UInt32, yaw: Int32) -> [EvdevInputEvent] {
        [EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absY, value: 8192),
         EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRY, value: -yaw * 1024),
         EvdevInputEvent(type: EvdevCode.mscType, code: EvdevCode.mscTimestamp, value: Int32(bitPattern: micros)),
         EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)]
    }

    func open(_ rig: DSURig) -> LocalPadSessions {
        let sessions = LocalPadSessions(pipeline: rig.pipeline, logger: RecordingLog().logger) { _, _ in }
        rig.pipeline.dropReporters.append(sessions)
        sessions.handle(.opened(key: Self.key, name: Self.name), now: rig.now)
        return sessions
    }

    @Test func aPadTurningRightMovesTheGyroMouseRight() throws {
        let rig = DSURig()
        let sessions = open(rig)
        var pad = try Self.dualSense()
        // 90 °/s for 1 s at 100 Hz: 90° × 16/3 px per degree = 480 px to the right, none down.
        for i in 0...100 {
            rig.advance(by: .milliseconds(10))
            sessions.handle(.events(key: Self.key, pad.motionEvents(Self.frame(UInt32(i) * 10_000, yaw: 90))), now: rig.now)
        }
        #expect(rig.pipeline.sessions.values.map(\.telemetry.name) == [Self.name])
        #expect(abs(rig.log.movedX - 480) <= 2, "moved \(rig.log.movedX) px")
        #expect(rig.log.lines.filter { $0.contains("move_by") }.allSatisfy { $0.hasSuffix("\"dy\":0}") })
    }

    @Test func aPadUnpluggedWhileCrossIsHeldReleasesIt() throws {
        let rig = DSURig()
        let sessions = open(rig)
        var pad = try Self.dualSense()
        var events = pad.attachControls(axes: [:], pressed: [EvdevCode.btnSouth])
        events += pad.motionEvents(Self.frame(1_000, yaw: 0))
        sessions.handle(.events(key: Self.key, events), now: rig.now)
        #expect(rig.log.count("\"button\":\"left\",\"state\":\"down\"") == 1)
        sessions.handle(.closed(key: Self.key, why: "No such device"), now: rig.now)
        #expect(rig.log.count("\"button\":\"left\",\"state\":\"up\"") == 1)
        #expect(rig.pipeline.sessions.isEmpty)
        #expect(rig.pipeline.closedTotals.reasons == ["client-disconnected:user": 1])
        // Late events for a closed pad go nowhere.
        sessions.handle(.events(key: Self.key, [.button(.a, isDown: true)]), now: rig.now)
        #expect(rig.log.count("\"state\":\"down\"") == 1)
    }

    @Test func pointerModeFusesThePadsGyroAndAccelerometer() throws {
        let rig = DSURig(mode: .pointer)
        let sessions = open(rig)
        var pad = try Self.dualSense()
        for i in 1...10 { sessions.handle(.events(key: Self.key, pad.motionEvents(Self.frame(UInt32(i) * 1000, yaw: 50))), now: rig.now) }
        #expect(rig.pipeline.sessions.values.compactMap(\.telemetry.note).isEmpty, "no 'needs attitude' note")
        let xs = rig.log.lines.compactMap { line -> Int? in
            guard line.contains("move_to"), let r = line.range(of: "\"x\":") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(xs.count == 10 && xs.first == 960 && xs.last! > 960, "pointer x: \(xs)")
    }

    /// A DualSense read here, served to emulators over DSU: hid-playstation's frame and DSU's
    /// (DualShock 4 as Dolphin and yuzu read it) were derived separately; the round trip agrees.
    @Test func aPadIsServedOverDSUInTheDualShocksOwnFrame() throws {
        let rig = DSURig()
        let (_, server) = try rig.addServer()
        let emulator = try SocketAddress(ipAddress: "127.0.0.1", port: 5000)
        try server.receive(DSUCodec.encode(DSUPacket(senderID: 9, message: .padDataRequest(.allPads))), from: emulator)
        let sessions = open(rig)
        var pad = try Self.dualSense()
        var events = pad.attachControls(axes: [:], pressed: [EvdevCode.btnSouth])
        // Flat, pitching up 30 °/s, turning right 90 °/s, rolling about the axis toward the player +45 °/s.
        events += pad.motionEvents([
            EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absY, value: 8192),
            EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRX, value: 30 * 1024),
            EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRY, value: -90 * 1024),
            EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRZ, value: 45 * 1024),
            EvdevInputEvent(type: EvdevCode.mscType, code: EvdevCode.mscTimestamp, value: 1000),
            EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)])
        sessions.handle(.events(key: Self.key, events), now: rig.now)
        let served = try server.sentDatagrams().compactMap { _, bytes -> DSUPadData? in
            if case .padData(let p) = try DSUCodec.decode(bytes).message { return p }
            return nil
        }
        let last = try #require(served.last)
        // DSU: pitch > 0 far end up, yaw > 0 turning right, roll > 0 right side down (+45 about
        // the axis toward the player lifts the right side); flat reads (0, −1, 0) g.
        #expect(abs(last.gyro.pitch - 30) < 1e-3 && abs(last.gyro.yaw - 90) < 1e-3 && abs(last.gyro.roll + 45) < 1e-3,
                "\(last.gyro)")
        #expect(abs(last.accel.x) < 1e-6 && abs(last.accel.y + 1) < 1e-6 && abs(last.accel.z) < 1e-6, "\(last.accel)")
        #expect(last.buttons.contains(.cross))
    }

    @Test func whatThePadsDroppedIsReportedAndTheStopLineCountsThem() throws {
        let rig = DSURig()
        let sessions = open(rig)
        var counters = LocalPadCounters()
        counters.timestampBackwards = 2
        sessions.handle(.alive([Self.key: counters]), now: rig.now)
        #expect(sessions.dropCounts == [.timestampBackwards: 2])
        #expect(sessions.summary == "local pads: 1 opened, 0 samples to the host, 0 late ones merged into them, dropped timestamp-backwards=2")
        // It ends with more than its last alive said; the next pad on the same node starts at
        // 0 and does not hide what the first dropped.
        counters.droppedByKernel = 3
        sessions.handle(.closed(key: Self.key, why: "unplugged", counters: counters), now: rig.now)
        sessions.handle(.opened(key: Self.key, name: "DualSense again"), now: rig.now)
        sessions.handle(.alive([Self.key: LocalPadCounters()]), now: rig.now)
        #expect(sessions.dropCounts == [.timestampBackwards: 2, .droppedByKernel: 3])
    }

    /// A reader that fell behind its pad far enough to lose frames says how far, at the end.
    @Test func theEndLineSaysHowFarTheReaderFellBehind() throws {
        let rig = DSURig()
        let said = RecordingLog()
        let sessions = LocalPadSessions(pipeline: rig.pipeline, logger: said.logger) { _, _ in }
        var counters = LocalPadCounters()
        counters.droppedByKernel = 1
        counters.longestReadLagMicros = 1_912_345
        for (key, lag) in [("/dev/input/event4", counters), ("/dev/input/event9", LocalPadCounters())] {
            sessions.handle(.opened(key: key, name: "DualSense"), now: rig.now)
            sessions.handle(.closed(key: key, why: "unplugged", counters: lag), now: rig.now)
        }
        #expect(said.lines == [
            "local pads: DualSense ended (unplugged); everything it held released; dropped dropped-by-kernel=1; read up to 1912 ms behind it",
            "local pads: DualSense ended (unplugged); everything it held released; dropped none",
        ])
    }

    @Test func aFullHostSaysSoAndReadsNothing() throws {
        let rig = DSURig(maxSessions: 1)
        _ = open(rig)
        let said = RecordingLog()
        let second = LocalPadSessions(pipeline: rig.pipeline, logger: said.logger) { _, _ in }
        second.handle(.opened(key: "/dev/input/event9", name: "Pro Controller"), now: rig.now)
        #expect(rig.pipeline.sessions.count == 1)
        #expect(said.lines == ["warning: local pads: Pro Controller: the host is full (--max-controllers); not read"])
        #expect(second.summary == "local pads: 0 opened, 0 samples to the host, 0 late ones merged into them, dropped none")
    }
}
#endif
