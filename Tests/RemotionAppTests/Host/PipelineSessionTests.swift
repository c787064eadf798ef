import Foundation
import Logging
import NIOCore
@testable import RemotionNetwork
import RemotionHostLogic
import RemotionProtocol
import Testing
@testable import RemotionApp

/// The pipeline's one record per session: nothing per session survives its
/// close but fixed-size totals; a profile can be swapped per session at run time; output
/// hooks see (and may take) what the mapping produced before the injector.
@Suite struct PipelineSessionTests {
    static let address = try! SocketAddress(ipAddress: "127.0.0.1", port: 5000)

    func make(_ settings: MappingSettings = MappingSettings()) -> (HostPipeline, VirtualScreenBackend) {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))
        let p = HostPipeline(injector: Injector(backend: screen), profile: MappingProfile(settings: settings),
                             logger: Logger(label: "test"), publisher: SnapshotPublisher())
        return (p, screen)
    }

    func attitude(_ yaw: Double, at micros: UInt64, buttons: ButtonSet = .none) -> MotionSample {
        MotionSample(timestampMicros: micros, attitude: Attitude(roll: 0, pitch: 0, yaw: yaw), buttons: buttons)
    }

    @Test func closedSessionsLeaveTotalsNotRecords() {
        let (p, _) = make()
        for i in 1...2_000 {
            let id = SessionID(UInt32(i))
            p.handle(.sessionOpened(id, .udp(Self.address)), now: .zero)
            p.handle(.motion(id, attitude(0.01, at: 1_000), latencyMicros: 300), now: .zero)
            p.handle(.button(id, .a, isDown: true), now: .zero)
            p.handle(.button(id, .a, isDown: false), now: .zero)
            p.handle(.motion(id, attitude(0.02, at: 2_000), latencyMicros: nil), now: .zero)
            p.handle(.sessionClosed(id, i.isMultiple(of: 2) ? .timedOut : .clientDisconnected(.user)), now: .zero)
        }
        #expect(p.sessions.isEmpty)
        #expect(p.injector.held.isEmpty)
        #expect(p.closedTotals.sessions == 2_000)
        #expect(p.closedTotals.reasons == ["timed-out": 1_000, "client-disconnected:user": 1_000])
        #expect(p.closedTotals.motionPackets == 4_000 && p.closedTotals.buttonEdges == 4_000)
        // Only measured samples count toward latency: one per session.
        #expect(p.latencySummary()?.samples == 2_000)
    }

    @Test func aSessionsOwnProfileChangesItsButtonsAndModeAndNotTheOthers() throws {
        let (p, screen) = make()
        let one = SessionID(1), two = SessionID(2)
        p.handle(.sessionOpened(one, .udp(Self.address)), now: .zero)
        p.handle(.sessionOpened(two, .udp(Self.address)), now: .zero)
        var presenter = MappingProfile()
        presenter.settings.mode = .fps
        presenter.buttons[.a] = .key(.right, modifiers: [])
        #expect(p.setProfile(one, presenter))
        p.handle(.button(one, .a, isDown: true), now: .zero)
        p.handle(.button(two, .a, isDown: true), now: .zero)
        let pressed = screen.events.compactMap { e -> String? in
            switch e.event {
            case .key(let k, true): "\(e.session):key:\(k.name)"
            case .button(let b, true): "\(e.session):mouse:\(b)"
            default: nil
            }
        }
        #expect(pressed == ["\(one):key:Right", "\(two):mouse:left"])
        #expect(p.profile(of: one)?.settings.mode == .fps && p.profile(of: two)?.settings.mode == .pointer)
        // The host's settings change reaches the session that follows them, not the one with its own.
        var host = p.settings
        host.sensitivity = 2
        p.update(settings: host)
        #expect(p.profile(of: two)?.settings.sensitivity == 2 && p.profile(of: one)?.settings.sensitivity == 1)
        p.setProfile(one, nil)
        #expect(p.profile(of: one)?.settings == host)
    }

    /// A phone's mode chosen on its page survived no change of the host's
    /// settings (the dashboard's sensitivity slider put every phone back in the host's mode).
    @Test func aSessionsModeSurvivesAChangeOfTheHostsSettingsAndShowsInTheSnapshot() throws {
        let (p, _) = make()
        let one = SessionID(1), two = SessionID(2)
        p.handle(.sessionOpened(one, .udp(Self.address)), now: .zero)
        p.handle(.sessionOpened(two, .udp(Self.address)), now: .zero)
        #expect(p.setMode(one, .fps) == .fps)
        var host = p.settings
        host.sensitivity = 2
        p.update(settings: host)
        #expect(p.profile(of: one)?.settings.mode == .fps, "the phone keeps the mode it chose")
        #expect(p.profile(of: one)?.settings.sensitivity == 2, "and follows the host's other settings")
        #expect(p.profile(of: two)?.settings.mode == .pointer)
        host.mode = .seed
        p.update(settings: host)
        #expect(p.profile(of: one)?.settings.mode == .fps && p.profile(of: two)?.settings.mode == .seed)
        let modes = p.snapshot(HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0), now: .zero).controllers.map { "\($0.session):\($0.mode)" }
        #expect(modes == ["\(one):fps", "\(two):seed"], "each controller's own mode in the status")
        // A profile given to the session replaces the mode it chose; back to the host's, it follows the host.
        var presenter = MappingProfile()
        presenter.settings.mode = .pointer
        p.setProfile(one, presenter)
        #expect(p.profile(of: one)?.settings.mode == .pointer)
        p.setProfile(one, nil)
        #expect(p.profile(of: one)?.settings == host)
    }

    final class Laser: HostOutputHook {
        var seen: [InputEvent] = []
        var on = true
        func output(_ event: InputEvent, session: SessionID, now: Instant) -> Bool {
            guard case .moveTo = event else { return true }
            seen.append(event)
            return !on
        }
    }

    @Test func anOutputHookSeesWhereThePointerWasSentAndCanKeepItFromTheInjector() {
        let (p, screen) = make()
        let laser = Laser()
        p.outputHooks.append(laser)
        let id = SessionID(7)
        p.handle(.sessionOpened(id, .udp(Self.address)), now: .zero)
        p.handle(.motion(id, attitude(0, at: 1_000), latencyMicros: 100), now: .zero)
        p.handle(.motion(id, attitude(0.1, at: 2_000), latencyMicros: 100), now: .zero)
        #expect(laser.seen.count == 2)
        #expect(screen.path.count == 1, "the laser took the pointer: the real cursor did not move from where it started")
        laser.on = false
        p.handle(.motion(id, attitude(0.2, at: 3_000), latencyMicros: 100), now: .zero)
        #expect(screen.path.count == 2)
        if case let .moveTo(x, y)? = laser.seen.last { #expect(screen.path.last.map { [$0.x, $0.y] } == [x, y]) }
    }

    @Test func theSnapshotIsTypedAndNamesTheSampleItShows() throws {
        let (p, _) = make()
        let id = SessionID(0xabc)
        p.handle(.sessionOpened(id, .udp(Self.address)), now: .zero)
        p.setName(id, "phone")
        p.handle(.motion(id, attitude(0.05, at: 123_456, buttons: ButtonSet([.b])), latencyMicros: nil),
                 now: Instant(nanoseconds: 1_000_000_000))
        let report = HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0)
        let s = p.snapshot(report, now: Instant(nanoseconds: 1_250_000_000))
        let c = try #require(s.controllers.first)
        #expect(c.session == id && c.name == "phone" && c.attitude?.yaw == 0.05)
        #expect(c.latencyP50Ms == nil, "no clock: not measured")
        #expect(c.sampleTimestampMicros == 123_456 && c.sampleAgeMs == 250)
        let json = String(decoding: try JSONEncoder().encode(c), as: UTF8.self)
        #expect(json.contains("\"session\":\"00000abc\"") && json.contains("\"latencyP50Ms\":null"))
        #expect(try JSONDecoder().decode(ControllerSnapshot.self, from: Data(json.utf8)) == c)
    }
}
