import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Synchronization
import Testing
@testable import RemotionApp
@testable import RemotionNetwork

/// The page's Calibrate on the host's pipeline, on virtual time: the
/// request starts that controller's calibration only, its page's sink hears "running" with
/// rising progress and then "done", the other page hears nothing, and the status snapshot
/// shows the controller calibrated.
@Suite struct HostPipelineCalibrationTests {
    typealias StillController = HostPipelineGyroTests.StillController
    static let one = SessionID(0x1), two = SessionID(0x2)

    final class Heard: Sendable {
        let notices = Mutex<[ControllerNotice]>([])
        var reports: [CalibrationReport] {
            notices.withLock { $0 }.compactMap { if case .calibration(let r) = $0 { r } else { nil } }
        }
    }

    @Test func thePagesRequestCalibratesItsControllerAndItsPageSeesProgressThenDone() throws {
        var settings = MappingSettings()
        for (k, v) in [("mode", "fps"), ("calibration.mode", "manual"), ("calibration.duration", "1")] { try settings.set(k, to: v) }
        let p = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))),
                             buttonMap: .seedDefault, settings: settings, logger: Logger(label: "test"),
                             publisher: SnapshotPublisher())
        p.handle(.sessionOpened(Self.one, .web(device: "a1", peer: nil)), now: .zero)
        p.handle(.sessionOpened(Self.two, .web(device: "b2", peer: nil)), now: .zero)
        let pages = [Heard(), Heard()]
        p.feedback.sinks[Self.one] = { n in pages[0].notices.withLock { $0.append(n) } }
        p.feedback.sinks[Self.two] = { n in pages[1].notices.withLock { $0.append(n) } }
        var controllers = [StillController(seed: 1), StillController(seed: 2)]
        HostPipelineGyroTests().feed(p, &controllers, seconds: 0.2)
        #expect(p.requestCalibration(Self.one, now: .seconds(1.2)) == .running(progress: 0))
        HostPipelineGyroTests().feed(p, &controllers, seconds: 0.5)
        guard case .running(let halfway)? = p.requestCalibration(Self.one, now: .seconds(1.7)) else {
            Issue.record("a second request restarted or refused it"); return
        }
        #expect(halfway > 0.4, "the running one's progress, not a new start: \(halfway)")
        HostPipelineGyroTests().feed(p, &controllers, seconds: 0.6)
        let heard = pages[0].reports
        #expect(heard.last == .done, "\(heard)")
        let progress = heard.compactMap { if case .running(let f) = $0 { f } else { nil } }
        #expect(progress.count >= 3 && zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 }, "\(progress)")
        #expect(pages[1].notices.withLock { $0 }.isEmpty, "the other page heard nothing")
        let snapshot = p.snapshot(HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0),
                                  now: .zero)
        #expect(snapshot.controllers.map { $0.gyro?.calibration } == [.calibrated, .uncalibrated])
        #expect(p.requestCalibration(SessionID(0x99), now: .zero) == nil)
        p.handle(.sessionClosed(Self.one, .timedOut), now: .zero)
        #expect(p.feedback.sinks[Self.one] == nil, "a closed session's sink goes with it")
    }
}
