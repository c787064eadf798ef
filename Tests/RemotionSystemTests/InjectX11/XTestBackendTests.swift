#if os(Linux)
import CX11
import RemotionProtocol
import RemotionSystem
import RemotionHostLogic
import RemotionTestSupport
import Testing

/// One test's X desk: its own Xvfb (see XvfbServer), an XTest injector on it, and a
/// second X connection that reads results back.
final class XTestRig {
    let xvfb: XvfbServer
    let backend: XTestBackend
    let injector: Injector
    let probe: OpaquePointer

    init() async throws {
        xvfb = try await XvfbServer.start()
        backend = try XTestBackend(displayName: xvfb.displayName)
        injector = Injector(backend: backend)
        probe = try xvfb.openProbe()
    }

    func close() {
        XCloseDisplay(probe)
        injector.close()
        xvfb.stop()
    }
}

/// Each test runs its own Xvfb and reads results back through a second X connection.
@Suite struct XTestBackendTests {
    let s1 = SessionID(1)

    @Test func screenGeometryComesFromTheServer() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        let backend = try XTestBackend(displayName: xvfb.displayName)
        defer { backend.close() }
        #expect(backend.screenGeometry() == ScreenGeometry(width: 1920, height: 1080))
    }

    @Test func absoluteMoveIsExact() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        for (x, y) in [(100, 200), (1919, 1079), (0, 0), (960, 540)] {
            try injector.apply([.moveTo(x: x, y: y)], session: s1)
            backend.sync()
            let p = queryPointer(probe)
            #expect((p.x, p.y) == (x, y))
        }
    }

    @Test func relativeMotionAddsToThePosition() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        try injector.apply([.moveTo(x: 500, y: 500)], session: s1)
        backend.sync()
        try injector.apply([.moveBy(dx: 30, dy: -20), .moveBy(dx: 5, dy: 5)], session: s1)
        backend.sync()
        let p = queryPointer(probe)
        #expect((p.x, p.y) == (535, 485))
    }

    @Test func buttonDownShowsInTheMaskAndUpClearsIt() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        let button1Mask = UInt32(Button1Mask), button3Mask = UInt32(Button3Mask)
        try injector.apply([.button(.left, down: true)], session: s1)
        backend.sync()
        #expect(queryPointer(probe).mask & button1Mask != 0)
        try injector.apply([.button(.right, down: true)], session: s1)
        backend.sync()
        #expect(queryPointer(probe).mask & button3Mask != 0)
        try injector.apply([.button(.left, down: false), .button(.right, down: false)], session: s1)
        backend.sync()
        #expect(queryPointer(probe).mask & (button1Mask | button3Mask) == 0)
    }

    @Test func keyDownIsSeenAndReleased() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        for key in [Key.left, Key.letter("i"), Key.control] {
            try injector.apply([.key(key, down: true)], session: s1)
            backend.sync()
            #expect(isKeyDown(probe, keysym: key.keysym), "\(key) should be down")
            try injector.apply([.key(key, down: false)], session: s1)
            backend.sync()
            #expect(!isKeyDown(probe, keysym: key.keysym), "\(key) should be up")
        }
    }

    @Test func wheelClicksLeaveNoButtonDown() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        try injector.apply([.wheel(dx: -2, dy: 3)], session: s1)
        backend.sync()
        let wheelMasks = UInt32(Button4Mask) | UInt32(Button5Mask)
        #expect(queryPointer(probe).mask & wheelMasks == 0)
    }

    @Test func keyWithoutKeycodeIsATypedError() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        let backend = try XTestBackend(displayName: xvfb.displayName)
        defer { backend.close() }
        // U+2603 SNOWMAN as a Unicode keysym: not in Xvfb's default keymap.
        #expect(throws: InjectionError.self) {
            try backend.post(.key(Key(keysym: 0x100_2603), down: true), session: s1)
        }
    }

    @Test func endSessionAfterAPressLeavesNothingHeldInX() async throws {
        let rig = try await XTestRig()
        defer { rig.close() }
        let (backend, injector, probe) = (rig.backend, rig.injector, rig.probe)
        let s2 = SessionID(2)
        try injector.apply([.button(.left, down: true), .key(.shift, down: true)], session: s1)
        backend.sync()
        try injector.apply([.button(.left, down: true)], session: s2)
        backend.sync()
        injector.endSession(s1)
        backend.sync()
        // s2 still holds the left button, shift is released.
        #expect(queryPointer(probe).mask & UInt32(Button1Mask) != 0)
        #expect(!isKeyDown(probe, keysym: Key.shift.keysym))
        #expect(injector.endSession(s2) == nil)
        backend.sync()
        #expect(queryPointer(probe).mask == 0)
        #expect(injector.held.isEmpty)
    }

    @Test func openingAMissingDisplayIsAClearError() {
        let error = #expect(throws: InjectionError.self) {
            _ = try XTestBackend(displayName: ":4711")
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("cannot open display \":4711\"") == true)
    }
}
#endif
