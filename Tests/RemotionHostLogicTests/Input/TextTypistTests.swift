import RemotionProtocol
import RemotionHostLogic
import Testing

/// Typing reaches the backend that types even when `REMOTION_ECHO_INJECTED` wraps it.
@Suite struct TextTypistTests {
    final class Typist: TextTypingBackend {
        let name = "typist"
        var typed: [String] = []
        func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: 10, height: 10) }
        func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {}
        func flush() throws(InjectionError) {}
        func close() {}
        func type(_ text: String) throws(InjectionError) -> String { typed.append(text); return "" }
        func restoreBorrowedKeycodes() {}
    }

    @Test func anEchoingBackendTypesThroughWhatItWraps() throws {
        let inner = Typist()
        let echoing = EchoingBackend(inner, sink: { _ in })
        let typist = try #require(echoing.textTyping)
        #expect(try typist.type("ŋ") == "")
        #expect(inner.typed == ["ŋ"])
        #expect(EchoingBackend(LogBackend(screen: ScreenGeometry(width: 1, height: 1), sink: { _ in }), sink: { _ in }).textTyping == nil)
        #expect(LogBackend(screen: ScreenGeometry(width: 1, height: 1), sink: { _ in }).textTyping == nil)
        #expect(inner.textTyping === inner)
    }
}
