import RemotionProtocol
import RemotionHostLogic
import Testing

@Suite struct BackendTests {
    let s = SessionID(42)

    @Test func logBackendWritesOneJSONLinePerEvent() throws {
        var lines: [String] = []
        let injector = Injector(backend: LogBackend { lines.append($0) })
        try injector.apply([.moveTo(x: 10, y: 20), .moveBy(dx: -3, dy: 4), .button(.left, down: true),
                            .key(.left, down: true), .wheel(dx: 0, dy: 1), .key(.left, down: false)], session: s)
        #expect(lines == [
            #"{"session":"0000002a","kind":"move_to","x":10,"y":20}"#,
            #"{"session":"0000002a","kind":"move_by","dx":-3,"dy":4}"#,
            #"{"session":"0000002a","kind":"button","button":"left","state":"down"}"#,
            #"{"session":"0000002a","kind":"key","key":"Left","state":"down"}"#,
            #"{"session":"0000002a","kind":"wheel","dx":0,"dy":1}"#,
            #"{"session":"0000002a","kind":"key","key":"Left","state":"up"}"#,
        ])
        injector.endSession(s)
        #expect(lines.last == #"{"session":"0000002a","kind":"button","button":"left","state":"up"}"#)
    }

    @Test func logBackendNamesKeysByNameOrKeysym() {
        let line = LogBackend.line(for: .key(Key(keysym: 0x22), down: true), session: s)
        #expect(line == #"{"session":"0000002a","kind":"key","key":"0x22","state":"down"}"#)
        let quote = LogBackend.line(for: .key(Key(keysym: 0x27), down: false), session: s)
        #expect(quote.contains(#""key":"apostrophe""#))
    }

    @Test func virtualScreenClampsAndRecordsThePath() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 50))
        #expect(screen.pointer == .init(x: 50, y: 25))
        try screen.post(.moveBy(dx: 70, dy: -5), session: s)
        try screen.post(.moveTo(x: -3, y: 80), session: s)
        try screen.post(.wheel(dx: 1, dy: -2), session: s)
        #expect(screen.path == [.init(x: 50, y: 25), .init(x: 99, y: 20), .init(x: 0, y: 49)])
        #expect(screen.wheelTotal == .init(x: 1, y: -2))
        screen.geometry = ScreenGeometry(width: 40, height: 30)
        #expect(screen.pointer == .init(x: 0, y: 29))
        try screen.post(.button(.middle, down: false), session: s)
        #expect(screen.redundantEvents == 1)
    }
}
