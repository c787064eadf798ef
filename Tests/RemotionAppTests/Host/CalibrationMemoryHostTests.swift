import Foundation
import Logging
import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Synchronization
import Testing

/// Calibration memory in the host (docs/MOTION.md, "Calibration memory"): each kind of
/// controller keyed by its own identity, a DSU pad remembered and restored on virtual time,
/// the file (0600, strict on read), and the sample's own time in the status JSON.
@Suite struct CalibrationMemoryHostTests {
    static let wall = 1_700_000_000.0
    static let address = try! SocketAddress(ipAddress: "127.0.0.1", port: 5000)

    /// A wall clock the test moves.
    final class WallClock: Sendable {
        private let seconds = Mutex(CalibrationMemoryHostTests.wall)
        func read() -> Double { seconds.withLock { $0 } }
        func advance(_ s: Double) { seconds.withLock { $0 += s } }
    }

    static func store(_ clock: WallClock, memory: CalibrationMemory = CalibrationMemory(), directory: String? = nil)
        -> CalibrationStore {
        CalibrationStore(memory: memory, directory: directory, wallClock: { clock.read() })
    }

    @Test func webAndUDPSessionsAreKeyedByDeviceAndStaticKeyPlainOnesAreNot() {
        let pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))),
                                    profile: MappingProfile(), logger: Logger(label: "test"))
        let staticKey = (0..<32).map { UInt8($0) }
        let udp = RecordingSinkDriver()
        udp.peerKeys[SessionID(3)] = staticKey
        pipeline.attached(to: udp)
        pipeline.handle(.sessionOpened(SessionID(1), .web(device: "dev-1", peer: Self.address)), now: .zero)
        pipeline.handle(.sessionOpened(SessionID(2), .udp(Self.address)), now: .zero)
        pipeline.handle(.sessionOpened(SessionID(3), .udp(Self.address)), now: .zero)
        #expect(pipeline.calibrationKey(of: SessionID(1)) == "web:dev-1")
        #expect(pipeline.calibrationKey(of: SessionID(2)) == nil, "plain datagrams: nothing names the controller")
        #expect(pipeline.calibrationKey(of: SessionID(3)) == "udp:" + Base32.encode(staticKey))
    }

    @Test func aDSUPadIsRememberedByItsMACAndRestoredWhenItComesBack() throws {
        let rig = DSURig()
        let clock = WallClock()
        let store = Self.store(clock)
        rig.pipeline.calibrations = store
        let (_, channel) = try rig.addSource()
        var counter: UInt32 = 0
        func send(_ seconds: Double, yaw: Float, connected: Bool = true) throws {
            for _ in 0..<Int(seconds * 100) {
                counter += 1
                rig.advance(by: .milliseconds(10))
                try channel.receive(padData(slot: 2, counter: counter, micros: 5_000_000 + UInt64(counter) * 10_000,
                                            yaw: yaw, connected: connected), from: DSURig.dsuServer)
            }
        }
        // On the table for 3 s: its gyro reads 0.6 °/s of bias about yaw.
        try send(3, yaw: 0.6)
        let key = "dsu:00:00:00:00:aa:02"                // the pad's MAC (padData: 0xAA00 + slot), not its slot
        let first = try #require(rig.pipeline.sessions.keys.first)
        #expect(rig.pipeline.calibrationKey(of: first) == key)
        let learned = try #require(rig.pipeline.sessions[first]?.mapper.raw.calibration)
        #expect(abs(MotionMath.degrees(learned.bias.length) - 0.6) < 0.01)
        try send(0.01, yaw: 0, connected: false)          // the app says the pad is gone
        #expect(rig.pipeline.sessions.isEmpty)
        let kept = try #require(store.memory.entries[key])
        #expect(kept.calibration == learned, "saved as the session ended")
        #expect(abs(kept.established - Self.wall) < 1, "refined until the end: established about now")
        #expect(kept.source == "dsu \(DSURig.dsuServer.displayText)", "named by its server: bounded per server")

        // A day later the pad comes back: its first sample already has the bias taken off,
        // trusted half as much.
        clock.advance(86_400)
        try send(0.01, yaw: 0.6)
        let again = try #require(rig.pipeline.sessions.keys.first)
        let restored = try #require(rig.pipeline.sessions[again]?.mapper.raw.calibration)
        #expect(restored.bias == learned.bias)
        #expect(abs(restored.confidence - learned.confidence / 2) < 1e-6)
        let status = try #require(rig.pipeline.gyroStatus(of: again))
        #expect(status.calibration == .calibrated)
        let age = try #require(rig.pipeline.sessions[again]?.calibrationAge(now: rig.host.now))
        #expect(abs(age - 86_400) < 1)
    }

    #if os(Linux)
    @Test func aLocalPadIsKeyedByItsUniqNotItsNode() throws {
        let rig = DSURig()
        let clock = WallClock()
        var memory = CalibrationMemory()
        let saved = GyroCalibration(bias: Vec3(0.001, -0.002, 0.003), confidence: 1, weight: 20)
        memory.remember("pad:a0:ab:51:00:00:01", saved, established: Self.wall - 60)
        rig.pipeline.calibrations = Self.store(clock, memory: memory)
        let sessions = LocalPadSessions(pipeline: rig.pipeline, logger: RecordingLog().logger) { _, _ in }
        sessions.handle(.opened(key: "/dev/input/event5", name: "DualSense", uniq: "a0:ab:51:00:00:01"), now: rig.now)
        sessions.handle(.opened(key: "/dev/input/event9", name: "Pad without uniq"), now: rig.now)
        let byName = Dictionary(uniqueKeysWithValues: rig.pipeline.sessions.map { ($0.value.telemetry.name, $0.key) })
        let pad = try #require(byName["DualSense"]), bare = try #require(byName["Pad without uniq"])
        #expect(rig.pipeline.calibrationKey(of: pad) == "pad:a0:ab:51:00:00:01")
        #expect(rig.pipeline.sessions[pad]?.mapper.raw.calibration?.bias == saved.bias, "restored before its first sample")
        #expect(rig.pipeline.calibrationKey(of: bare) == nil)
        #expect(rig.pipeline.sessions[bare]?.mapper.raw.calibration == nil)
    }
    #endif

    @Test func theFileIsPrivateAtomicAndReadStrictly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calib-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = WallClock()
        let store = Self.store(clock, directory: directory)
        let c = GyroCalibration(bias: Vec3(0.01, 0, -0.01), confidence: 0.8, weight: 2.4)
        store.remember(CalibrationSave(key: "web:phone", calibration: c, ageSeconds: 60))
        store.remember(CalibrationSave(key: "web:wild", calibration: GyroCalibration(bias: Vec3(1, 0, 0), confidence: 1, weight: 20),
                                       ageSeconds: 0))
        store.flush()
        #expect(store.refused == 1, "a 57 °/s bias is refused, not written")
        let path = directory + "/" + CalibrationStore.fileName
        #expect(PrivateFiles.mode(of: path) == 0o600 && PrivateFiles.mode(of: directory) == 0o700)
        let (loaded, note) = CalibrationStore.load(directory: directory, now: clock.read())
        #expect(note == nil && loaded.entries.count == 1)
        #expect(loaded.entries["web:phone"]?.calibration == c && loaded.entries["web:phone"]?.established == Self.wall - 60)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [CalibrationStore.fileName],
                "no temporary file left behind")

        try PrivateFiles.replace(path, with: Array("{\"version\":1,\"controllers\":[{\"id\":\"web:x\"}]}".utf8))
        let (partial, partialNote) = CalibrationStore.load(directory: directory, now: clock.read())
        #expect(partial.entries.isEmpty && partialNote?.contains("1 malformed entries dropped") == true)
        try PrivateFiles.replace(path, with: [0xFF, 0x00, 0x7B])
        let (garbage, garbageNote) = CalibrationStore.load(directory: directory, now: clock.read())
        #expect(garbage.entries.isEmpty && garbageNote?.contains("is not one") == true)
        let (none, noneNote) = CalibrationStore.load(directory: directory + "/missing", now: clock.read())
        #expect(none.entries.isEmpty && noneNote == nil, "no file yet: nothing to say")
    }

    @Test func theStatusJSONCarriesTheSampleTimesAndTheCalibrationsAgeAndDrift() throws {
        let rig = DSURig()
        let (_, channel) = try rig.addSource()
        var anchor: UInt64 = 0
        let start: UInt64 = 9_000_000_000               // the app's own clock: 2.5 hours in
        for i in 0..<250 {                               // 2.5 s still at 100 Hz, 0.3 °/s of bias
            rig.advance(by: .milliseconds(10))
            if i == 0 { anchor = rig.nowMicros }
            try channel.receive(padData(slot: 0, counter: UInt32(i + 1), micros: start + UInt64(i) * 10_000, yaw: 0.3),
                                from: DSURig.dsuServer)
        }
        rig.advance(by: .milliseconds(40))
        let snapshot = rig.pipeline.snapshot(rig.host.report(), now: rig.host.now)
        let json = try JSONEncoder().encode(snapshot)
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let c = try #require((root["controllers"] as? [[String: Any]])?.first)
        // The sample the attitude came from: as the app stamped it, and on the host's clock
        // (anchored at its first sample's arrival, then the app's own 10 ms steps).
        #expect((c["sampleTimestampMicros"] as? NSNumber)?.uint64Value == start + 249 * 10_000)
        #expect((c["sampleHostMicros"] as? NSNumber)?.uint64Value == anchor + 249 * 10_000)
        #expect((c["sampleHostMicros"] as? NSNumber)?.uint64Value == rig.nowMicros - 40_000)
        #expect(abs(((c["sampleAgeMs"] as? NSNumber)?.doubleValue ?? -1) - 40) < 0.001)
        #expect((c["attitude"] as? [Double])?.count == 3)
        let gyro = try #require(c["gyro"] as? [String: Any])
        let age = try #require((gyro["calibrationAgeSeconds"] as? NSNumber)?.doubleValue)
        #expect(age > 0.039 && age < 0.05, "refined by the still period up to its last sample, 40 ms ago: \(age) s")
        let drift = try #require((gyro["residualDriftDegreesPerMinute"] as? NSNumber)?.doubleValue)
        #expect(drift < 0.01, "a noise-free bias is taken off whole: \(drift) °/min")
        let back = try JSONDecoder().decode(HostSnapshot.self, from: json)
        #expect(back.controllers.first?.sampleHostMicros == anchor + 249 * 10_000)
    }
}
