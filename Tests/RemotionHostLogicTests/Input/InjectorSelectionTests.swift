import RemotionProtocol
import RemotionHostLogic
import Testing

/// `--inject` as a pure function of (environment, /dev/uinput access, platform).
@Suite struct InjectorSelectionTests {
    let wayland = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]
    let x11 = ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"]

    func decide(_ choice: InjectorChoice, _ env: [String: String], _ uinput: UInputAccess,
                _ platform: InjectorPlatform = .linux) -> InjectorDecision {
        InjectorSelection.decide(choice, InjectorFacts(environment: env, uinput: uinput, platform: platform))
    }

    /// `--inject auto`.
    func decide(_ env: [String: String], _ uinput: UInputAccess, _ platform: InjectorPlatform = .linux) -> InjectorDecision {
        decide(.auto, env, uinput, platform)
    }

    @Test func waylandPicksUInputNeverXTest() {
        let d = decide(wayland, .writable)
        #expect(d.backend == .uinput && d.fix == nil && d.warning == nil)
        #expect(d.reason.contains("Wayland"))
        // Either sign of Wayland is enough (DISPLAY is XWayland's).
        #expect(decide(["XDG_SESSION_TYPE": "wayland", "DISPLAY": ":1"], .writable).backend == .uinput)
        #expect(decide(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"], .writable).backend == .uinput)
    }

    @Test func waylandWithoutWritableUInputSaysWhatToDoInOneLine() {
        for access in [UInputAccess.notWritable, .missing] {
            let d = decide(wayland, access)
            #expect(d.backend == .uinput, "never XTest on Wayland")
            let fix = d.fix ?? ""
            #expect(!fix.contains("\n"))
            #expect(fix.contains("Wayland") && fix.contains("scripts/install.sh --system"))
            #expect(fix.contains(UInputAdvice.udevRule) && fix.contains("uaccess"))
            #expect(fix.contains("modprobe uinput") == (access == .missing))
        }
        // A test's REMOTION_NO_UINPUT=1 counts as not writable, on Wayland too.
        var env = wayland
        env["REMOTION_NO_UINPUT"] = "1"
        #expect(decide(env, .writable).fix != nil)
    }

    @Test func x11AndTheConsoleAsBefore() {
        #expect(decide(x11, .writable).backend == .uinput)
        let x = decide(x11, .notWritable)
        #expect(x.backend == .xtest && x.reason.contains("DISPLAY=:0") && x.fix == nil && x.warning == nil)
        #expect(decide(["DISPLAY": ":3"], .missing).backend == .xtest)
        var tests = x11
        tests["REMOTION_NO_UINPUT"] = "1"
        #expect(decide(tests, .writable).backend == .xtest)
        let console = decide([:], .notWritable)
        #expect(console.backend == .log && console.reason.contains("only logged"))
        #expect(decide(["DISPLAY": ""], .missing).backend == .log)
        #expect(decide([:], .writable).backend == .uinput)
    }

    @Test func otherPlatforms() {
        #expect(decide([:], .missing, .macOS).backend == .cgevent)
        #expect(decide(wayland, .writable, .macOS).backend == .cgevent)
        #expect(decide(wayland, .writable, .other).backend == .log)
    }

    @Test func xtestOnWaylandWarnsOnceElsewhereNot() {
        let d = decide(.xtest, wayland, .notWritable)
        #expect(d.backend == .xtest && d.fix == nil)
        #expect(d.warning?.contains("Wayland") == true && d.warning?.contains("--inject uinput") == true)
        #expect(decide(.xtest, x11, .notWritable).warning == nil)
    }

    @Test func namedBackendsAreTakenAsAsked() {
        for choice in InjectorChoice.allCases where choice != .auto {
            let d = decide(choice, wayland, .notWritable)
            #expect(d.backend == choice && d.fix == nil && d.reason == "--inject \(choice.rawValue)")
        }
    }
}

/// The echo that `REMOTION_ECHO_INJECTED=1` adds to a real backend.
@Suite struct EchoingBackendTests {
    @Test func echoesWhatTheBackendTookWithTheScreenOnMoves() throws {
        let screen = VirtualScreenBackend(geometry: ScreenGeometry(width: 800, height: 600))
        var lines: [String] = []
        let echo = EchoingBackend(screen, sink: { lines.append($0) })
        let injector = Injector(backend: echo)
        try injector.apply([.moveTo(x: 400, y: 150), .button(.left, down: true)], session: SessionID(42))
        #expect(echo.name == "virtual")
        #expect(lines == [#"{"session":"0000002a","kind":"move_to","x":400,"y":150,"width":800,"height":600}"#,
                          #"{"session":"0000002a","kind":"button","button":"left","state":"down"}"#])
        #expect(screen.pointer == .init(x: 400, y: 150) && screen.buttonsDown == [.left])
        injector.close()
        #expect(lines.last == #"{"session":"0000002a","kind":"button","button":"left","state":"up"}"#)
        #expect(screen.isClosed)
    }
}
