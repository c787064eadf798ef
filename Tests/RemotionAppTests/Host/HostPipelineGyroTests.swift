import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Testing
@testable import RemotionApp
@testable import RemotionNetwork

/// The host pipeline's side of gyro calibration: the `calibrate` button command per controller,
/// the gyro pipeline kept fed while motion is paused, and the gyro status in snapshots.
@Suite struct HostPipelineGyroTests {
    static let one = SessionID(0x1), two = SessionID(0x2)

    /// A still controller lying flat at 250 Hz: gyro = bias (0.8, −0.5, 0.6) °/s plus
    /// ±0.1 °/s noise, accelerometer (0, 0, 1) g plus ±0.005 g.
    struct StillController {
        var rng: SplitMix64
        var micros: UInt64 = 1_000_000
        init(seed: UInt64) { rng = SplitMix64(seed: seed) }

        mutating func next() -> MotionSample {
            micros += 4000
            func n(_ s: Double) -> Float { Float((rng.nextUnit() * 2 - 1) * s) }
            let d = Double.pi / 180
            return MotionSample(timestampMicros: micros,
                                gyro: Vector3(x: Float(0.8 * d) + n(0.1 * d), y: Float(-0.5 * d) + n(0.1 * d),
                                              z: Float(0.6 * d) + n(0.1 * d)),
                                acceleration: Vector3(x: n(0.005), y: n(0.005), z: 1 + n(0.005)))
        }
    }

    func pipeline(_ keys: [(String, String)], buttons: [Button: ButtonAction]) throws -> (HostPipeline, VirtualScreenBackend) {
        var settings = MappingSettings()
        for (k, v) in keys { try settings.set(k, to: v) }
        var map = ButtonMap.seedDefault
        for (b, a) in buttons { map[b] = a }
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))
        let p = HostPipeline(injector: Injector(backend: screen), buttonMap: map, settings: settings,
                             logger: Logger(label: "test"), publisher: SnapshotPublisher())
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: 5000)
        p.handle(.sessionOpened(Self.one, .udp(address)), now: .zero)
        p.handle(.sessionOpened(Self.two, .udp(address)), now: .zero)
        return (p, screen)
    }

    func feed(_ p: HostPipeline, _ c: inout [StillController], seconds: Double) {
        for _ in 0..<Int(seconds * 250) {
            // The host's clock runs with the samples (each arrives as it is taken).
            let a = c[0].next(), b = c[1].next()
            p.handle(.motion(Self.one, a, latencyMicros: 100), now: Instant(nanoseconds: Int64(a.timestampMicros) * 1_000))
            p.handle(.motion(Self.two, b, latencyMicros: 100), now: Instant(nanoseconds: Int64(b.timestampMicros) * 1_000))
        }
    }

    @Test func calibrateButtonCalibratesThatControllerOnly() throws {
        let (p, _) = try pipeline([("mode", "fps"), ("calibration.mode", "manual"), ("calibration.duration", "1")],
                                  buttons: [.i: .host(.calibrate)])
        var controllers = [StillController(seed: 1), StillController(seed: 2)]
        feed(p, &controllers, seconds: 0.5)
        #expect(p.gyroStatus(of: Self.one)?.calibration == .uncalibrated)
        p.handle(.button(Self.one, .i, isDown: true), now: .zero)
        p.handle(.button(Self.one, .i, isDown: false), now: .zero)
        feed(p, &controllers, seconds: 0.5)
        #expect(p.gyroStatus(of: Self.one)?.calibration == .calibrating)
        feed(p, &controllers, seconds: 0.6)
        let status = try #require(p.gyroStatus(of: Self.one))
        #expect(status.calibration == .calibrated && status.confidence == 1)
        let error = zip(status.biasDegreesPerSecond, [0.8, -0.5, 0.6]).map { abs($0 - $1) }.max()!
        #expect(error < 0.02)
        #expect(p.gyroStatus(of: Self.two)?.calibration == .uncalibrated)
        #expect(p.calibrate(session: SessionID(0x99)) == .noController)

        let snapshot = p.snapshot(HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0),
                                  now: .zero)
        #expect(snapshot.controllers.map { $0.gyro?.calibration } == [.calibrated, .uncalibrated])
        let view = StatusSnapshot(snapshot, addresses: [], port: 1)
        #expect(ControlView(width: 120).lines(for: view).contains { $0.contains("gyro calibrated 100% · bias +0.80") })
    }

    @Test func calibrateIsRefusedWhenOff() throws {
        let (p, _) = try pipeline([("calibration.mode", "off")], buttons: [:])
        var controllers = [StillController(seed: 3), StillController(seed: 4)]
        feed(p, &controllers, seconds: 0.1)
        #expect(p.calibrate(session: Self.one) == .off)
        #expect(p.gyroStatus(of: Self.one)?.calibration == .off)
    }

    /// While motion is paused nothing is injected, but calibration keeps learning and the
    /// attitude keeps coming (fused from the raw sensors).
    @Test func pausedMotionStillFeedsTheGyroPipeline() throws {
        let (p, screen) = try pipeline([("mode", "pointer")], buttons: [.j: .host(.pause)])
        p.handle(.button(Self.one, .j, isDown: true), now: .zero)
        #expect(p.paused)
        var controllers = [StillController(seed: 5), StillController(seed: 6)]
        feed(p, &controllers, seconds: 4)
        #expect(screen.events.isEmpty)
        #expect(p.gyroStatus(of: Self.one)?.calibration == .calibrated)
        #expect(p.gyroStatus(of: Self.one)?.still == true)
        let attitude = try #require(p.sessions[Self.one]?.telemetry.attitude)
        #expect(abs(attitude.pitch) < 0.01 && abs(attitude.roll) < 0.01)
    }
}
