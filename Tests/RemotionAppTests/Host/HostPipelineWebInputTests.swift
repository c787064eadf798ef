import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Synchronization
import Testing
@testable import RemotionApp

/// The pipeline's side of the page's modes: touchpad moves, scrolls, clicks and drags go
/// through the injector once and are released when the session ends; text on a backend
/// that cannot type comes back as untyped; the laser routes motion to the overlay and never
/// moves the pointer. The injector is the log backend (every injected event as a line).
@Suite struct HostPipelineWebInputTests {
    static let one = SessionID(0x1)

    /// Records the overlay calls. A fake: the real overlay needs an X display and is
    /// checked end to end by scripts/web-modes-test.sh. Sendable through its Mutex.
    final class RecordingOverlay: LaserOverlay {
        let calls = Mutex<[String]>([])
        func show(x: Int, y: Int) { calls.withLock { $0.append("show \(x),\(y)") } }
        func hide() { calls.withLock { $0.append("hide") } }
    }

    final class Lines {
        var all: [String] = []
    }

    func pipeline() throws -> (HostPipeline, Lines) {
        let lines = Lines()
        let backend = LogBackend(sink: { lines.all.append($0) })
        let p = HostPipeline(injector: Injector(backend: backend), buttonMap: .seedDefault, settings: MappingSettings(),
                             logger: Logger(label: "test"))
        p.handle(.sessionOpened(Self.one, .udp(try SocketAddress(ipAddress: "127.0.0.1", port: 5000))), now: .zero)
        p.setTyping(Self.one, allowed: true)                        // as the page's transport says at open
        return (p, lines)
    }

    @Test func touchpadMovesScrollsAndClicksOnce() throws {
        let (p, lines) = try pipeline()
        p.webInput(Self.one, .pad(dx: 10, dy: -5, millis: 100), now: .zero)     // slow: gain 1.6
        p.webInput(Self.one, .scroll(dx: 0, dy: 48), now: .zero)                  // two wheel steps up
        p.webInput(Self.one, .click(.right, down: nil), now: .zero)
        #expect(lines.all.count == 4)
        #expect(lines.all[0].contains(#""kind":"move_by","dx":16,"dy":-8"#))
        #expect(lines.all[1].contains(#""kind":"wheel","dx":0,"dy":2"#))
        #expect(lines.all[2].contains(#""button":"right","state":"down""#) && lines.all[3].contains(#""state":"up""#))
    }

    @Test func touchpadSettingsApplyLive() throws {
        let (p, lines) = try pipeline()
        var settings = MappingSettings()
        try settings.set("touchpad.speed", to: "1")
        try settings.set("touchpad.scroll_step", to: "10")
        p.update(settings: settings)
        p.webInput(Self.one, .pad(dx: 10, dy: 0, millis: 100), now: .zero)
        p.webInput(Self.one, .scroll(dx: 0, dy: -30), now: .zero)
        #expect(lines.all.count == 2)
        #expect(lines.all[0].contains(#""dx":10,"dy":0"#) && lines.all[1].contains(#""kind":"wheel","dx":0,"dy":-3"#))
    }

    @Test func aDragIsPressedOnceAndReleasedWhenTheSessionEnds() throws {
        let (p, lines) = try pipeline()
        p.webInput(Self.one, .click(.left, down: true), now: .zero)
        p.webInput(Self.one, .click(.left, down: true), now: .zero)              // a repeated edge: not injected again
        p.webInput(Self.one, .key(Key(name: "Return")!), now: .zero)
        #expect(lines.all.filter { $0.contains(#""button":"left","state":"down""#) }.count == 1)
        #expect(lines.all.filter { $0.contains(#""key":"Return""#) }.count == 2)
        p.handle(.sessionClosed(Self.one, .timedOut), now: .zero)
        #expect(lines.all.filter { $0.contains(#""button":"left","state":"up""#) }.count == 1)
        #expect(p.webInput(Self.one, .click(.left, down: nil), now: .zero) == nil)   // gone: nothing injected
        #expect(lines.all.filter { $0.contains(#""button":"left""#) }.count == 2)
    }

    @Test func textOnABackendThatCannotTypeComesBack() throws {
        let (p, lines) = try pipeline()
        let reply = p.webInput(Self.one, .text("é😀"), now: .zero)
        guard case let .untyped(text, reason)? = reply else { Issue.record("no untyped reply"); return }
        #expect(text == "é😀" && reason.contains("--inject xtest") && lines.all.isEmpty)
    }

    func laser(_ p: HostPipeline, _ open: @escaping () -> (overlay: (any LaserOverlay)?, note: String?)) {
        let injector = p.injector
        let hook = LaserOverlayHook(logger: Logger(label: "test"), screen: { injector.screen }, open: open)
        p.laser = hook
    }

    @Test func theLaserDrawsTheDotAndLeavesThePointerAlone() throws {
        let (p, lines) = try pipeline()
        let overlay = RecordingOverlay()
        laser(p) { (overlay, nil) }
        let d = Double.pi / 180
        p.handle(.motion(Self.one, MotionSample(timestampMicros: 1000, attitude: Attitude(roll: 0, pitch: 0, yaw: 0)), latencyMicros: 0), now: .zero)
        let moves = lines.all.count
        #expect(p.webInput(Self.one, .laser(on: true), now: .zero) == nil, "a dot is drawn: nothing to tell the page")
        p.handle(.motion(Self.one, MotionSample(timestampMicros: 2000, attitude: Attitude(roll: 0, pitch: 5 * d, yaw: 10 * d)), latencyMicros: 0), now: .zero)
        #expect(lines.all.count == moves, "the pointer moved while the laser was held")
        // Pointer mode's formula with the centre at yaw 0, pitch 0 (fov 40° × 25°).
        #expect(overlay.calls.withLock { $0 } == ["show \(960 - 480),\(540 - 216)"])
        p.webInput(Self.one, .laser(on: false), now: .zero)
        #expect(overlay.calls.withLock { $0.last } == "hide")
        p.webInput(Self.one, .laser(on: true), now: .zero)
        p.handle(.sessionClosed(Self.one, .timedOut), now: .zero)
        #expect(overlay.calls.withLock { $0.last } == "hide", "a session ending while its laser is held hides the dot")
        p.handle(.sessionOpened(Self.one, .udp(try SocketAddress(ipAddress: "127.0.0.1", port: 5000))), now: .zero)
        p.handle(.motion(Self.one, MotionSample(timestampMicros: 3000, attitude: Attitude(roll: 0, pitch: 0, yaw: 0)), latencyMicros: 0), now: .zero)
        #expect(lines.all.count == moves + 1, "after the laser the pointer moves again")
    }

    @Test func withoutAnOverlayTheLaserMovesThePointer() throws {
        let (p, lines) = try pipeline()
        let note = "the compositor offers no layer shell (zwlr_layer_shell_v1); the laser moves the pointer instead"
        laser(p) { (nil, note) }
        // The page is told, each time the laser goes on, in the line the host logged.
        #expect(p.webInput(Self.one, .laser(on: true), now: .zero) == .laserMovesPointer(note))
        p.handle(.motion(Self.one, MotionSample(timestampMicros: 1000, attitude: Attitude(roll: 0, pitch: 0, yaw: 0)), latencyMicros: 0), now: .zero)
        #expect(lines.all.count == 1 && lines.all[0].contains("move_to"))
        #expect(p.webInput(Self.one, .laser(on: false), now: .zero) == nil)
        #expect(p.webInput(Self.one, .laser(on: true), now: .zero) == .laserMovesPointer(note))
    }

    /// A paired phone is a full keyboard. With typing off (host-wide, or
    /// for one device), its text and keys inject nothing, are counted, and the page is told.
    @Test func withTypingOffTextAndKeysInjectNothing() throws {
        let (p, lines) = try pipeline()
        p.setTyping(Self.one, allowed: false)
        let text = p.webInput(Self.one, .text("rm -rf ~\n"), now: .zero)
        let key = p.webInput(Self.one, .key(Key(keysym: 0xff0d)), now: .zero)
        #expect(lines.all.isEmpty, "nothing injected: \(lines.all)")
        #expect(p.typingRefusals == 2)
        #expect(text == .untyped("rm -rf ~\n", reason: "typing is off for this phone on the host (remotion devices --typing NAME turns it on)"))
        if case .untyped(_, let reason)? = key { #expect(reason.contains("typing is off")) } else { Issue.record("no reply for the key") }
        p.webInput(Self.one, .click(.left, down: nil), now: .zero)
        #expect(lines.all.count == 2, "the page's clicks still work")
        p.setTyping(Self.one, allowed: true)
        p.typingAllowed = false                                     // remotion host --no-typing
        if case .untyped(_, let reason)? = p.webInput(Self.one, .key(Key(keysym: 0xff09)), now: .zero) { #expect(reason.contains("--no-typing")) }
        #expect(lines.all.count == 2 && p.typingRefusals == 3)
    }

    /// Text is rate-limited per session (a token bucket: 200 characters a
    /// second, bursts of 1000), on virtual time.
    @Test func textHasABudget() {
        var budget = TextBudget()
        var got: [Bool] = []
        for (count, at) in [(1000, 0.0), (1, 0), (201, 1), (200, 1), (1000, 100), (1, 100)] {
            got.append(budget.take(count, now: .seconds(at)))
        }
        // the burst; spent; 200 a second come back (not 201); never more than the burst saved up
        #expect(got == [true, false, false, true, true, false])
    }
}
