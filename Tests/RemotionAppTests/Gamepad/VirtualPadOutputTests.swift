#if os(Linux)
import Foundation
import RemotionNetwork
import Logging
import NIOCore
import Synchronization
import Testing
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
@testable import RemotionApp

/// `remotion host --gamepad`: a pad per controller session, fed, rested and destroyed,
/// through a recording stand-in for the UHID device (the real one runs in
/// scripts/gamepad-guest-test.sh on Debian's kernel): the whole pipeline routing the
/// core's pad states to it beside the injector, and the output alone.
@Suite struct VirtualPadOutputTests {
    final class RecordingPad: VirtualPadDevice {
        let identity: String
        let mac: DualSenseMAC
        var states: [GamepadState] = []
        var closed = 0
        var accepts = true
        /// What the device hands on when a game writes an output report (UHID's reader thread).
        let onOutput: @Sendable (DualSenseOutput) -> Void
        init(identity: String, onOutput: @escaping @Sendable (DualSenseOutput) -> Void = { _ in }) {
            self.identity = identity; self.mac = DualSenseMAC(identity: identity); self.onOutput = onOutput
        }
        func update(_ state: GamepadState, received: Instant) -> Bool { states.append(state); return accepts }
        func close() { closed += 1 }
    }

    /// A list appended from any thread (the pad's callbacks are @Sendable).
    final class Recorded<T: Sendable>: Sendable {
        private let items = Mutex<[T]>([])
        func append(_ item: T) { items.withLock { $0.append(item) } }
        var all: [T] { items.withLock { $0 } }
    }

    final class Rig {
        let forEvery: Bool
        init(forEvery: Bool = true) { self.forEvery = forEvery }
        var pads: [RecordingPad] = []
        let log = RecordingLog()
        var lines: [String] { log.lines }
        var refuse: UHIDError?
        /// What the output handed on for the loop: (session, change), in order.
        let feedback = Recorded<(SessionID, FeedbackChange)>()
        lazy var output = VirtualPadOutput(
            bus: .bluetooth,
            logger: log.logger,
            onFeedback: { [feedback] id, change in feedback.append((id, change)) },
            makePad: { [unowned self] identity, _, onOutput in
                if let refuse = self.refuse { throw refuse }
                let pad = RecordingPad(identity: identity, onOutput: onOutput)
                self.pads.append(pad)
                return pad
            })
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))
        lazy var pipeline: HostPipeline = {
            let p = HostPipeline(injector: Injector(backend: screen), profile: MappingProfile(), logger: Logger(label: "test"))
            p.addOutput(output, pads: VirtualPadSettings(forEvery: forEvery))
            return p
        }()

        func open(_ id: SessionID, _ address: SocketAddress) { pipeline.handle(.sessionOpened(id, .udp(address)), now: .zero) }
    }

    let phone = try! SocketAddress(ipAddress: "192.168.1.20", port: 40000)
    let phoneAgain = try! SocketAddress(ipAddress: "192.168.1.20", port: 40001)
    static let rest = GamepadState(motion: .still(at: .zero))

    @Test func aSessionGetsAPadThatItsMotionAndButtonsFeed() throws {
        let rig = Rig()
        rig.open(SessionID(1), phone)
        let pad = try #require(rig.pads.first)
        #expect(pad.identity == "address:192.168.1.20")
        rig.pipeline.handle(.motion(SessionID(1), MotionSample(timestampMicros: 4_000, gyro: Vector3(x: 0, y: 0, z: .pi)),
                                    latencyMicros: nil), now: .zero)
        rig.pipeline.handle(.button(SessionID(1), .a, isDown: true), now: .zero)
        rig.pipeline.handle(.motion(SessionID(7), MotionSample(timestampMicros: 1), latencyMicros: nil), now: .zero)   // no session
        #expect(pad.states.count == 2)
        #expect(abs(pad.states[0].motion.angularRate.y - 180) < 0.01)
        #expect(pad.states[1].buttons == [.cross])
        #expect(rig.screen.events.contains { $0.event == .button(.left, down: true) }, "the injector got A too")
        #expect(rig.lines.count == 1 && rig.lines[0].contains(pad.mac.description))
    }

    /// The zero-stuck rule for both outputs: a controller that vanishes holding A leaves no
    /// click held in the injector and its pad at rest before it is destroyed.
    @Test func aVanishedSessionReleasesTheInjectorAndRestsItsPadBeforeClosingIt() throws {
        let rig = Rig()
        rig.open(SessionID(1), phone)
        let pad = try #require(rig.pads.first)
        rig.pipeline.handle(.button(SessionID(1), .a, isDown: true), now: .zero)
        rig.pipeline.handle(.button(SessionID(1), .l, isDown: true), now: .zero)
        #expect(!rig.pipeline.injector.held.isEmpty && pad.states.last?.rightTrigger == 1)
        // A timeout with the edges lost: no release came before the close.
        rig.pipeline.handle(.sessionClosed(SessionID(1), .timedOut), now: .zero)
        #expect(rig.pipeline.injector.held.isEmpty, "the click was released")
        let released = Set(rig.screen.events.suffix(2).map(\.event))
        #expect(released == [.button(.left, down: false), .key(.letter("d"), down: false)], "A's click and L's key")
        #expect(pad.states.last?.isAtRest == true && pad.closed == 1, "rest, then destroyed")
        rig.pipeline.handle(.button(SessionID(1), .a, isDown: false), now: .zero)
        #expect(pad.states.count == 3 && rig.output.padCount == 0, "nothing after the close")
    }

    @Test func theSameControllerComingBackGetsTheSameMACTwoAtOnceDiffer() throws {
        let rig = Rig()
        rig.open(SessionID(1), phone)
        rig.open(SessionID(2), phoneAgain)
        #expect(rig.pads.count == 2)
        #expect(rig.pads[1].identity == "address:192.168.1.20#2")
        #expect(rig.pads[0].mac != rig.pads[1].mac)
        rig.pipeline.handle(.sessionClosed(SessionID(1), .timedOut), now: .zero)
        rig.pipeline.handle(.sessionClosed(SessionID(2), .timedOut), now: .zero)
        rig.open(SessionID(3), phoneAgain)
        #expect(rig.pads[2].mac == rig.pads[0].mac)
        // A controller paired as "phone" (its static key in paired.json, which the session
        // authenticated with).
        let store = KeyStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("pads-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let key = (0..<32).map { UInt8($0) }
        _ = try store.addPaired(name: "phone", publicKey: key)
        let udp = RecordingSinkDriver()
        udp.peerKeys[SessionID(4)] = key
        rig.pipeline.attached(to: udp)
        rig.pipeline.pairedNames = PairedNames(store: store)
        rig.open(SessionID(4), phone)
        #expect(rig.pads[3].identity == "name:phone", "a paired name names the pad")
    }

    /// Rumble and light: what a game writes to a session's pad reaches
    /// `onFeedback` with that session; the pipeline paces it and sends it on the controller's
    /// own transport (a page's sink, else a datagram), and nothing for a session with neither.
    @Test func aGamesRumbleReachesTheControllersTransport() throws {
        let rig = Rig()
        rig.open(SessionID(1), phone)
        rig.open(SessionID(2), phoneAgain)
        let pad = try #require(rig.pads.last)
        pad.onOutput(DualSenseOutput(rumbleLeft: 255, rumbleRight: 128, lightbar: (0, 0, 255)))
        let handed = rig.feedback.all
        #expect(handed.count == 1 && handed[0].0 == SessionID(2))
        let page = Recorded<ControllerNotice>(), udp = RecordingSinkDriver()
        udp.datagramSessions = [SessionID(1)]
        rig.pipeline.attached(to: udp)
        rig.pipeline.feedback.sinks[SessionID(2)] = { page.append($0) }
        rig.pipeline.padFeedback(SessionID(2), handed[0].1, now: .zero)
        let blue = ControllerFeedback(rumbleLow: 255, rumbleHigh: 128, lightbar: .init(red: 0, green: 0, blue: 255))
        #expect(page.all == [.feedback(blue)])
        rig.pipeline.padFeedback(SessionID(1), FeedbackChange(rumble: .init(low: 1, high: 1)), now: .zero)
        #expect(udp.feedback.map(\.0) == [SessionID(1)])
        udp.datagramSessions = []                                         // neither: counted, not sent
        rig.pipeline.padFeedback(SessionID(1), FeedbackChange(rumble: .init(low: 0, high: 0)), now: .milliseconds(100))
        #expect(rig.pipeline.feedback.sent == 2 && rig.pipeline.feedback.unsendable == 1)
        rig.pipeline.handle(.sessionClosed(SessionID(2), .timedOut), now: .zero)
        #expect(rig.pipeline.feedback.sinks.isEmpty, "a closed session's sink goes with it")
    }

    /// A change the pacer holds back (50 ms after the last one sent) asks the UDP handler's
    /// timer to wake at its deadline, and the pipeline's tick then sends it: a page that sends
    /// no sample in between still gets the game's rumble.
    @Test func aHeldBackRumbleWakesTheTimerAndGoesAtItsTick() throws {
        let rig = Rig()
        rig.open(SessionID(1), phone)
        let page = Recorded<ControllerNotice>(), udp = RecordingSinkDriver()
        rig.pipeline.attached(to: udp)
        rig.pipeline.feedback.sinks[SessionID(1)] = { page.append($0) }
        let light = ControllerFeedback.Color(red: 255, green: 0, blue: 64)
        rig.pipeline.padFeedback(SessionID(1), FeedbackChange(lightbar: light), now: .zero)
        #expect(udp.wakes.isEmpty, "sent at once, nothing held")
        rig.pipeline.padFeedback(SessionID(1), FeedbackChange(rumble: .init(low: 255, high: 128)), now: .milliseconds(5))
        #expect(page.all.count == 1 && udp.wakes == [.milliseconds(50)])
        rig.pipeline.tick(now: .milliseconds(50))
        #expect(page.all.last == .feedback(ControllerFeedback(rumbleLow: 255, rumbleHigh: 128, lightbar: light)))
    }

    /// The page asks for a pad in its Gamepad mode and gives it back when it leaves; with
    /// `for = "every"` it cannot give back the one the host's owner gave it, the dashboard can.
    @Test func aPadOnRequestAndWhoMayTakeItAway() throws {
        let asked = Rig(forEvery: false)
        asked.open(SessionID(1), phone)
        #expect(asked.pads.isEmpty, "for = asked: none at connect")
        #expect(asked.pipeline.setPad(SessionID(1), on: true, now: .zero, askedByController: true) == true)
        #expect(asked.pads.count == 1 && asked.output.padCount == 1)
        #expect(asked.pipeline.setPad(SessionID(1), on: false, now: .zero, askedByController: true) == false)
        #expect(asked.pads[0].closed == 1 && asked.pads[0].states.last?.isAtRest == true, "rest, then gone")
        let every = Rig()
        every.open(SessionID(1), phone)
        #expect(every.pipeline.setPad(SessionID(1), on: false, now: .zero, askedByController: true) == true, "the page cannot")
        #expect(every.pipeline.setPad(SessionID(1), on: false, now: .zero) == false, "the dashboard can")
        #expect(every.pipeline.setPad(SessionID(9), on: true, now: .zero) == nil, "no such session")
    }

    @Test func closeAllRestsEveryPad() {
        let rig = Rig()
        for i in 1...3 { rig.output.perform(.padOpened(identity: "address:192.168.1.20"), session: SessionID(UInt32(i)), now: .zero) }
        rig.output.stop()
        #expect(rig.pads.map(\.closed) == [1, 1, 1])
        #expect(rig.output.padCount == 0)
        #expect(rig.output.summary == "gamepad: 3 virtual DualSense pads made, 0 refused, 0 reports not written")
    }

    @Test func refusedPadsAndFailedWritesAreCountedAndSaidOnce() throws {
        let rig = Rig()
        rig.refuse = UHIDError.openFailure(errno: 13, path: "/dev/uhid")
        rig.output.perform(.padOpened(identity: "a"), session: SessionID(1), now: .zero)
        rig.output.perform(.padOpened(identity: "b"), session: SessionID(2), now: .zero)
        #expect(rig.output.dropCounts == [.padNotCreated: 2])
        #expect(rig.lines.count == 1 && rig.lines[0].contains("TAG+=\"uaccess\""))
        rig.refuse = nil
        rig.output.perform(.padOpened(identity: "c"), session: SessionID(3), now: .zero)
        let pad = try #require(rig.pads.first)
        pad.accepts = false
        rig.output.perform(.pad(Self.rest), session: SessionID(3), now: .zero)
        rig.output.perform(.input(.moveBy(dx: 1, dy: 0)), session: SessionID(3), now: .zero)   // not its kind
        #expect(rig.output.dropCounts == [.padNotCreated: 2, .reportNotWritten: 1])
        #expect(pad.states.count == 1)
    }
}
#endif
