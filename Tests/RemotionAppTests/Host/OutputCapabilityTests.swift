import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Testing
@testable import RemotionApp

/// Each output gets what its type says it can take, and nothing else: a page's text goes
/// only to the text output (the injector's typing, there only when its backend types), the
/// laser only to the laser output, and an output that accepts every kind still sees neither.
@Suite struct OutputCapabilityTests {
    static let one = SessionID(1)

    /// An output that says it accepts every kind: records the kinds that reach it.
    final class EveryKind: HostOutput {
        var seen: [PipelineOutput.Kind] = []
        var accepts: PipelineOutput.Kind { [.input, .pad, .note, .feedback, .calibrationSave, .text, .laser] }
        func perform(_ output: PipelineOutput, session: SessionID, now: Instant) { seen.append(output.kind) }
        func stop() {}
    }

    /// A backend that types (a stand-in for XTest's spare keycodes).
    final class Typist: TextTypingBackend {
        let name = "typist"
        var typed: [String] = []
        func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: 1920, height: 1080) }
        func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {}
        func flush() throws(InjectionError) {}
        func close() {}
        func type(_ text: String) throws(InjectionError) -> String { typed.append(text); return "" }
        func restoreBorrowedKeycodes() {}
    }

    /// A laser output that records what it was asked.
    final class Laser: LaserOutput {
        var sets: [String] = []
        func set(_ id: SessionID, on: Bool, from pointer: (x: Int, y: Int)?) -> String? {
            sets.append("\(id) \(on)")
            return nil
        }
        func output(_ event: InputEvent, session: SessionID, now: Instant) -> Bool { true }
        func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant) {}
        func motion(_ id: SessionID, _ sample: MotionSample, now: Instant) {}
        func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {}
        func sessionClosed(_ id: SessionID, now: Instant) {}
    }

    func pipeline(_ backend: any InjectorBackend) throws -> (HostPipeline, EveryKind) {
        let p = HostPipeline(injector: Injector(backend: backend), buttonMap: .seedDefault, settings: MappingSettings(),
                             logger: Logger(label: "test"))
        let every = EveryKind()
        p.addOutput(every)
        p.handle(.sessionOpened(Self.one, .udp(try SocketAddress(ipAddress: "127.0.0.1", port: 5000))), now: .zero)
        p.setTyping(Self.one, allowed: true)
        return (p, every)
    }

    @Test func textGoesOnlyToTheOutputThatTypes() throws {
        let typist = Typist()
        let (p, every) = try pipeline(typist)
        #expect(p.text != nil, "a backend that types gives the host a text output")
        #expect(p.webInput(Self.one, .text("hé"), now: .zero) == nil)
        #expect(typist.typed == ["hé"])
        #expect(!every.seen.contains(.text), "\(every.seen)")

        // Behind the echo of `REMOTION_ECHO_INJECTED` the wrapped backend still types.
        let inner = Typist()
        let (echoed, _) = try pipeline(EchoingBackend(inner, sink: { _ in }))
        #expect(echoed.webInput(Self.one, .text("x"), now: .zero) == nil && inner.typed == ["x"])

        let (cannot, seen) = try pipeline(LogBackend(sink: { _ in }))
        #expect(cannot.text == nil, "the log backend cannot type: no text output")
        guard case let .untyped(text, reason)? = cannot.webInput(Self.one, .text("hé"), now: .zero) else {
            Issue.record("no untyped reply")
            return
        }
        #expect(text == "hé" && reason.contains("cannot type text"))
        #expect(!seen.seen.contains(.text), "\(seen.seen)")
    }

    @Test func theLaserGoesOnlyToTheLaserOutput() throws {
        let (p, every) = try pipeline(LogBackend(sink: { _ in }))
        let laser = Laser()
        p.laser = laser
        #expect(p.outputHooks.count == 1 && p.observers.count == 1, "the laser sees pointer events and sessions' ends")
        #expect(p.webInput(Self.one, .laser(on: true), now: .zero) == nil)
        p.webInput(Self.one, .laser(on: false), now: .zero)
        #expect(laser.sets == ["\(Self.one) true", "\(Self.one) false"])
        #expect(!every.seen.contains(.laser), "\(every.seen)")

        // Taken away, it is no hook or observer any more, and a laser reaches nothing.
        p.laser = nil
        #expect(p.outputHooks.isEmpty && p.observers.isEmpty)
        #expect(p.webInput(Self.one, .laser(on: true), now: .zero) == nil)
        #expect(laser.sets.count == 2 && !every.seen.contains(.laser))
    }
}
