import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Testing
@testable import RemotionApp

/// Typing borrows keycodes and gives them back `typingRestoreDelay` after the last text, on
/// the host's timer (the pipeline's `nextDeadline` and `tick`), on virtual time: no task of
/// its own and no clock read (it once scheduled a 1,050 ms task and read the clock itself).
@Suite struct TypingRestoreTimerTests {
    final class TypingBackend: TextTypingBackend {
        let name = "typing stand-in"
        var typed: [String] = []
        var restored = 0
        func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: 1920, height: 1080) }
        func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {}
        func flush() throws(InjectionError) {}
        func close() {}
        func type(_ text: String) throws(InjectionError) -> String { typed.append(text); return "" }
        func restoreBorrowedKeycodes() { restored += 1 }
    }

    static let one = SessionID(1)

    func pipeline(_ backend: TypingBackend) throws -> HostPipeline {
        let p = HostPipeline(injector: Injector(backend: backend), buttonMap: .seedDefault, settings: MappingSettings(),
                             logger: Logger(label: "test"))
        p.handle(.sessionOpened(Self.one, .udp(try SocketAddress(ipAddress: "127.0.0.1", port: 5000))), now: .zero)
        p.setTyping(Self.one, allowed: true)
        return p
    }

    @Test func borrowedKeycodesGoBackADelayAfterTheLastTextAndANewerTextPostponesIt() throws {
        let backend = TypingBackend()
        let p = try pipeline(backend)
        let t0 = Instant.zero + .seconds(10)
        #expect(p.nextDeadline == nil, "nothing borrowed, nothing due")
        #expect(p.webInput(Self.one, .text("hi"), now: t0) == nil)
        #expect(backend.typed == ["hi"])
        #expect(p.nextDeadline == t0 + HostPipeline.typingRestoreDelay)
        p.tick(now: t0 + .milliseconds(600))
        #expect(backend.restored == 0, "too early")
        let t1 = t0 + .milliseconds(800)
        #expect(p.webInput(Self.one, .text("!"), now: t1) == nil)
        #expect(p.nextDeadline == t1 + HostPipeline.typingRestoreDelay, "a newer text postpones it")
        p.tick(now: t0 + HostPipeline.typingRestoreDelay)
        #expect(backend.restored == 0, "due for the first text only: postponed")
        p.tick(now: t1 + HostPipeline.typingRestoreDelay)
        #expect(backend.restored == 1)
        #expect(p.nextDeadline == nil)
        p.tick(now: t1 + .seconds(5))
        #expect(backend.restored == 1, "once")
    }
}
