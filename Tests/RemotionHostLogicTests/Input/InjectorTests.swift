import RemotionProtocol
import RemotionHostLogic
import Testing

/// A backend that fails on the n-th post (0-based), recording everything else.
final class FailingBackend: InjectorBackend {
    let name = "failing"
    var failAt: Int?
    var posts: [InputEvent] = []
    var flushes = 0
    var postCount = 0
    init(failAt: Int?) { self.failAt = failAt }
    func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: 10, height: 10) }
    func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        defer { postCount += 1 }
        if postCount == failAt { throw InjectionError(.failed, backend: name, "boom") }
        posts.append(event)
    }
    func flush() throws(InjectionError) { flushes += 1 }
    func close() {}
}

@Suite struct InjectorTests {
    let s1 = SessionID(1), s2 = SessionID(2)

    @Test func oneFrameIsOneFlushAndDuplicatesNeverReachTheOS() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 50))
        let injector = Injector(backend: screen)
        try injector.apply([.moveTo(x: 10, y: 10), .button(.left, down: true), .moveBy(dx: 5, dy: 0)], session: s1)
        try injector.apply([.button(.left, down: true)], session: s1)
        try injector.apply([.button(.left, down: true)], session: s2)
        #expect(screen.flushCount == 3)
        #expect(screen.events.count == 3)
        #expect(screen.redundantEvents == 0)
        #expect(injector.held == [s1: [.mouse(.left)], s2: [.mouse(.left)]])
        #expect(injector.screen == ScreenGeometry(width: 100, height: 50))
    }

    @Test func endSessionReleasesItsInputs() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 50))
        let injector = Injector(backend: screen)
        try injector.apply([.key(.control, down: true), .key(.letter("i"), down: true)], session: s1)
        try injector.apply([.key(.control, down: true)], session: s2)
        #expect(injector.endSession(s1) == nil)
        #expect(screen.keysDown == [.control])
        injector.endSession(s2)
        #expect(screen.keysDown.isEmpty && injector.held.isEmpty)
        #expect(screen.redundantEvents == 0)
    }

    @Test func releaseEverythingOnShutdown() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 50))
        let injector = Injector(backend: screen)
        try injector.apply([.button(.right, down: true)], session: s1)
        try injector.apply([.key(.up, down: true)], session: s2)
        injector.close()
        #expect(screen.buttonsDown.isEmpty && screen.keysDown.isEmpty)
        #expect(screen.isClosed)
        #expect(throws: InjectionError.self) { try injector.apply([.moveBy(dx: 1, dy: 1)], session: s1) }
    }

    @Test func backendErrorReleasesEverythingAndIsRethrown() throws {
        let backend = FailingBackend(failAt: 2)
        let injector = Injector(backend: backend)
        try injector.apply([.button(.left, down: true), .key(.shift, down: true)], session: s1)
        let error = #expect(throws: InjectionError.self) {
            try injector.apply([.moveBy(dx: 1, dy: 0)], session: s2)
        }
        #expect(error?.message == "boom")
        #expect(injector.held.isEmpty)
        #expect(backend.posts.suffix(2) == [.button(.left, down: false), .key(.shift, down: false)])
    }
}
