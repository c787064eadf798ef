import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// `--inject log` writes each injected frame when the injector flushes it.
@Suite struct InjectionLogOutputTests {
    final class Collected { var writes: [String] = [] }

    @Test func everyFrameIsWrittenAtItsFlushInOneWrite() throws {
        let collected = Collected()
        let output = InjectionLogOutput { collected.writes.append($0) }
        let made = try InjectorFactory.make(.log, environment: [:], log: output)
        let injector = Injector(backend: made.backend)
        try injector.apply([.moveTo(x: 1, y: 2), .button(.left, down: true)], session: SessionID(7))
        #expect(collected.writes.count == 1, "the frame is out as soon as it was injected")
        #expect(collected.writes.first?.split(separator: "\n").count == 2)
        #expect(collected.writes.first?.hasSuffix("\n") == true)
        try injector.apply([.button(.left, down: false)], session: SessionID(7))
        #expect(collected.writes.last == #"{"session":"00000007","kind":"button","button":"left","state":"up"}"# + "\n")
        try injector.apply([], session: SessionID(7))
        #expect(collected.writes.count == 2, "an empty frame writes nothing")
    }
}
