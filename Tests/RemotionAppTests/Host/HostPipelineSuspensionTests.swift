import Logging
import NIOCore
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing

/// A fast user switch (logind's Active false) is one rule for every output: held input
/// released, pads at rest, the observers (the DSU server's slots, the laser) told every
/// session closed — then silence until the desktop session is active again.
@Suite struct HostPipelineSuspensionTests {
    /// Records what the observers are told, in order.
    final class RecordingObserver: HostPipelineObserver {
        var said: [String] = []
        func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant) { said.append("open \(id.rawValue)") }
        func motion(_ id: SessionID, _ sample: MotionSample, now: Instant) { said.append("motion \(id.rawValue)") }
        func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
            said.append("button \(id.rawValue) \(button) \(isDown ? "down" : "up")")
        }
        func sessionClosed(_ id: SessionID, now: Instant) { said.append("closed \(id.rawValue)") }
    }

    /// The pad states an output was handed, by session.
    final class RecordingPads: HostOutput {
        var states: [(SessionID, GamepadState)] = []
        var accepts: PipelineOutput.Kind { .pad }
        func stop() {}
        func perform(_ output: PipelineOutput, session: SessionID, now: Instant) {
            if case let .pad(state) = output { states.append((session, state)) }
        }
    }

    static func sample(_ t: UInt64, yaw: Float = 1) -> MotionSample {
        MotionSample(timestampMicros: t, gyro: Vector3(x: 0, y: 0, z: yaw))
    }

    @Test func suspendedTheObserversArePadsAndInjectorAreSilentAndComeBackAfter() throws {
        let backend = VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))
        let p = HostPipeline(injector: Injector(backend: backend), profile: MappingProfile(), logger: Logger(label: "test"))
        let pads = RecordingPads()
        p.addOutput(pads, pads: VirtualPadSettings(forEvery: true))
        let watcher = RecordingObserver()
        p.observers.append(watcher)
        let udp = SessionID(1)
        p.handle(.sessionOpened(udp, .udp(try SocketAddress(ipAddress: "192.0.2.7", port: 4000))), now: .zero)
        let dsu = try #require(p.open(from: .dsu(server: try SocketAddress(ipAddress: "127.0.0.1", port: 26760), slot: 0),
                                      name: "pad", now: .zero))
        p.handle(.button(udp, .a, isDown: true), now: .milliseconds(10))
        p.perform(.motion(Self.sample(10_000), latencyMicros: nil), for: dsu, now: .milliseconds(10))
        #expect(p.injector.held[udp]?.isEmpty == false, "A is held")
        let before = watcher.said.count

        p.setDesktopSessionActive(false, now: .milliseconds(20))
        #expect(p.injector.held.values.allSatisfy { $0.isEmpty }, "held input released")
        let ids = [udp, dsu].sorted()
        #expect(Array(watcher.said[before...]) == ids.map { "closed \($0.rawValue)" }, "the observers see every session end")
        #expect(Set(pads.states.suffix(2).map(\.0)) == Set(ids) && pads.states.suffix(2).allSatisfy { $0.1 == $0.1.rest(at: $0.1.motion.time) },
                "every pad at rest")
        let padsBefore = pads.states.count, events = backend.events.count, told = watcher.said.count

        // Silence: motion and buttons reach no output and no observer.
        p.handle(.motion(udp, Self.sample(30_000), latencyMicros: nil), now: .milliseconds(30))
        p.perform(.motion(Self.sample(30_000), latencyMicros: nil), for: dsu, now: .milliseconds(30))
        p.button(dsu, .b, isDown: true, now: .milliseconds(31))
        #expect(watcher.said.count == told && pads.states.count == padsBefore && backend.events.count == events)
        // A session that ends meanwhile is not closed twice for the observers.
        p.handle(.sessionClosed(udp, .timedOut), now: .milliseconds(40))
        #expect(watcher.said.count == told)

        p.setDesktopSessionActive(true, now: .milliseconds(50))
        #expect(Array(watcher.said[told...]) == ["open \(dsu.rawValue)"], "the open one comes back to the observers")
        p.perform(.motion(Self.sample(60_000), latencyMicros: nil), for: dsu, now: .milliseconds(60))
        #expect(watcher.said.last == "motion \(dsu.rawValue)" && pads.states.count > padsBefore, "and its motion flows again")
    }
}
