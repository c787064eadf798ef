import Logging
import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionTestSupport
import Testing

/// The host's loop driver (`HostDriver`) on virtual time (an EmbeddedEventLoop): one timer
/// and one clock for every origin, one slot count, and the composition root's order
/// (`HostRoot`: outputs, then the driver, then the sockets).
@Suite struct HostDriverTests {
    static let udp = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)
    static let udp2 = try! SocketAddress(ipAddress: "127.0.0.1", port: 40001)

    static func ping(_ session: UInt32) -> [UInt8] {
        PlainDatagram(session: SessionID(session), message: .ping(clientTimeMicros: 1, clockOffsetMicros: 0)).encode()
    }

    /// A page's controller that goes silent is closed by the backstop on the driver's timer,
    /// with no socket at all: the timer is the driver's, not the UDP handler's (before, a host
    /// had a timer only inside its UDP socket's handler).
    @Test func aPageControllersDeadlineFiresFromTheDriverWithNoSocket() throws {
        let loop = EmbeddedEventLoop()
        let pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 800, height: 600))),
                                    buttonMap: .seedDefault, settings: MappingSettings(), logger: Logger(label: "driver"))
        let driver = HostDriver(loop: loop, pipeline: pipeline, maximumControllers: 4)
        let now = driver.now
        let web = try #require(pipeline.open(from: .web(device: "phone", peer: nil), name: "phone", now: now))
        pipeline.button(web, .a, isDown: true, now: now)
        #expect(pipeline.injector.held.values.reduce(0) { $0 + $1.count } == 1)
        #expect(driver.armedDeadline != nil, "the driver's one timer is armed for the page's deadline")
        loop.advanceTime(by: .milliseconds(9_900))
        #expect(pipeline.sessions[web] != nil, "not yet silent for the backstop's 10 s")
        loop.advanceTime(by: .milliseconds(200))
        #expect(pipeline.sessions[web] == nil, "closed by the backstop on the driver's timer")
        #expect(pipeline.injector.held.isEmpty || pipeline.injector.held.values.allSatisfy(\.isEmpty), "its button released")
        #expect(driver.wakeUps > 0)
    }

    /// A UDP controller's timeout (2.5 s) and a page controller's backstop (10 s) both fire
    /// from the one timer, which is always armed for the earliest deadline of every origin.
    @Test func oneTimerFiresTheDeadlinesOfEveryOrigin() throws {
        let rig = DSURig(timeout: .milliseconds(2500))
        let driver = rig.host.driver
        try rig.hostChannel.receive(Self.ping(0xD1), from: Self.udp)
        _ = try rig.hostChannel.sentDatagrams()
        let web = try #require(rig.pipeline.open(from: .web(device: "phone", peer: nil), name: "phone", now: rig.now))
        #expect(rig.pipeline.sessions.count == 2)
        let armed = try #require(driver.armedDeadline)
        #expect(armed <= rig.now + .milliseconds(100), "the report cadence, the earliest of every deadline")
        let before = driver.wakeUps
        rig.advance(by: .milliseconds(2499))
        #expect(rig.pipeline.sessions[SessionID(0xD1)] != nil)
        rig.advance(by: .milliseconds(2))
        #expect(rig.pipeline.sessions[SessionID(0xD1)] == nil, "the UDP controller timed out on the driver's timer")
        #expect(rig.pipeline.sessions[web] != nil)
        rig.advance(by: .milliseconds(7_600))
        #expect(rig.pipeline.sessions[web] == nil, "the page's controller closed by the backstop on the same timer")
        #expect(driver.wakeUps > before)
        #expect(driver.armedDeadline == nil, "nothing open, nothing due: the timer rests")
    }

    /// `--max-controllers 2`, given to the driver alone (the UDP handler's configuration says
    /// 16): a UDP controller and a page's fill the host; a third of either origin is refused.
    /// (Before, the wire machine had its own limit: this third UDP controller got in.)
    @Test func theSlotCountIsTheDriversForEveryOrigin() throws {
        let rig = DSURig(maxSessions: 2)
        try rig.hostChannel.receive(Self.ping(0xA1), from: Self.udp)
        let web = try #require(rig.pipeline.open(from: .web(device: "phone", peer: nil), name: "phone", now: rig.now))
        #expect(rig.pipeline.sessions.count == 2)
        _ = try rig.hostChannel.sentDatagrams()
        try rig.hostChannel.receive(Self.ping(0xA2), from: Self.udp2)
        #expect(rig.pipeline.sessions[SessionID(0xA2)] == nil, "a third UDP controller is refused")
        let answers = try rig.hostChannel.sentDatagrams().map { try PlainDatagram.decode($0.1).message }
        #expect(answers == [.disconnect(.full)], "told the host is full: \(answers)")
        #expect(rig.pipeline.open(from: .web(device: "phone2", peer: nil), name: "phone 2", now: rig.now) == nil,
                "a third page controller is refused")
        // One goes: its slot is free for either origin.
        rig.pipeline.close(web, reason: .clientDisconnected(.user), now: rig.now)
        try rig.hostChannel.receive(Self.ping(0xA2), from: Self.udp2)
        #expect(rig.pipeline.sessions[SessionID(0xA2)] != nil, "the page's slot went to the waiting UDP controller")
        #expect(rig.pipeline.open(from: .web(device: "phone2", peer: nil), name: "phone 2", now: rig.now) == nil)
    }

    /// The composition root makes the outputs before the driver and the driver before the
    /// socket: the first controller on the socket finds its pad output there and gets its pad
    /// when it opens, with nothing patched on afterwards.
    @Test func theFirstControllerOnTheSocketGetsItsPadAtOpen() async throws {
        let host = try await HostRoot.start(
            bind: "127.0.0.1", port: 0, maximumControllers: 4, makeFraming: { PlainFraming() },
            makeOutputs: { _ in
                let pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 800, height: 600))),
                                            buttonMap: .seedDefault, settings: MappingSettings(), logger: Logger(label: "root"))
                pipeline.addOutput(EveryOriginTests.RecordingPads(), pads: VirtualPadSettings(forEvery: true))
                return pipeline
            })
        let client = try await ClientService<PlainClientFraming>.start(
            host: host.localAddress, sessionID: SessionID(0x51), plan: StreamPlan(source: SyntheticMotion(shape: .circle), rate: 50,
                                                                                   duration: 0.5, presses: PressScript(presses: [])),
            makeFraming: { PlainClientFraming() })
        #expect(await eventually(within: .seconds(30)) { (try? await host.onLoop { handler in
            handler.sink.outputs.compactMap { $0 as? EveryOriginTests.RecordingPads }.first?.states.contains { $0.0 == SessionID(0x51) }
        }) == true }, "the controller's pad got its states")
        await client.close()
        await host.shutdown()
    }
}
