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

    /// The virtual screen keeps the newest events and path points, and counts them all: a host
    /// left running with `--inject virtual` does not grow.
    @Test func theVirtualScreensHistoryIsBounded() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 50), historyLimit: 10)
        for i in 0..<1_000 { try screen.post(.moveBy(dx: i % 2 == 0 ? 1 : -1, dy: 0), session: s1) }
        #expect(screen.eventCount == 1_000)
        #expect(screen.events.count < 20 && screen.path.count < 20, "\(screen.events.count) events, \(screen.path.count) points kept")
        #expect(screen.events.last?.event == .moveBy(dx: -1, dy: 0), "the newest kept")
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

/// While the desktop session is inactive: suspend releases everything
/// held, then drops input (counted); resume injects again; nothing stays down either way.
@Suite struct InjectorSuspendTests {
    @Test func suspendReleasesThenDropsAndResumeInjects() throws {
        let backend = VirtualScreenBackend(geometry: ScreenGeometry(width: 100, height: 100))
        let injector = Injector(backend: backend)
        let s = SessionID(7)
        try injector.apply([.button(.left, down: true), .key(.letter("a"), down: true)], session: s)
        #expect(injector.held[s]?.count == 2)
        #expect(injector.suspend() == nil)
        #expect(injector.held.isEmpty && injector.isSuspended)
        try injector.apply([.button(.left, down: true)], session: s)
        try injector.apply(.moveBy(dx: 5, dy: 5), session: s)
        #expect(injector.held.isEmpty && injector.droppedWhileSuspended == 2)
        injector.resume()
        try injector.apply([.button(.left, down: false)], session: s)   // the dropped press's release: a no-op
        #expect(injector.held.isEmpty)
        try injector.apply([.button(.left, down: true)], session: s)
        #expect(injector.held[s]?.count == 1)
    }
}

@Suite struct LogindRepliesTests {
    @Test func parsesWhatGdbusPrints() {
        #expect(LogindReplies.objectPath("(objectpath '/org/freedesktop/login1/session/_32',)\n") == "/org/freedesktop/login1/session/_32")
        #expect(LogindReplies.objectPath("(objectpath '/etc/passwd',)") == nil)
        #expect(LogindReplies.objectPath("(objectpath '/org/freedesktop/login1/session/a b',)") == nil)
        #expect(LogindReplies.objectPath("Error: GDBus.Error:org.freedesktop.login1.NoSessionForPID") == nil)
        #expect(LogindReplies.boolean("(<true>,)\n") == true)
        #expect(LogindReplies.boolean("(<false>,)") == false)
        #expect(LogindReplies.boolean("(<'yes'>,)") == nil)
        let path = "/org/freedesktop/login1/session/c1"
        #expect(LogindReplies.isPropertiesChanged(
            "\(path): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'Active': <false>}, @as [])", path: path))
        #expect(!LogindReplies.isPropertiesChanged("\(path)2: org.freedesktop.DBus.Properties.PropertiesChanged (…)", path: path))
        #expect(LogindReplies.isOwned("The name org.freedesktop.login1 is owned by :1.3"))
        #expect(LogindReplies.sessionID("c1") == "c1" && LogindReplies.sessionID("2") == "2")
        #expect(LogindReplies.sessionID("1; rm") == nil && LogindReplies.sessionID("") == nil && LogindReplies.sessionID(nil) == nil)
    }
}
