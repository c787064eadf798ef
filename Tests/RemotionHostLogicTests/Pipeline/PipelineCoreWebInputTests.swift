import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The phone page's touchpad, clicks, keys, text and laser decided in the core,
/// on virtual time: each message becomes `PipelineOutput`s or a refusal for the page, and
/// nothing reaches a session that is not open.
@Suite struct PipelineCoreWebInputTests {
    typealias Rig = PipelineCoreTests.Rig
    static let one = SessionID(1)
    static let refusedForHost = "typing is off on the host (--no-typing)"
    static let refusedForPhone = "typing is off for this phone on the host (remotion devices --typing NAME turns it on)"
    static let tooFast = "typing too fast: at most 200 characters a second"

    /// A rig with session `one` open, its device allowed to type (as its transport says at open).
    static func rig(_ profile: MappingProfile = MappingProfile()) -> Rig {
        var rig = Rig(profile)
        _ = rig.open(one)
        rig.core.setTyping(one, allowed: true)
        return rig
    }

    /// A session may type only once its transport said its device may (`setTyping`, sent
    /// when it opens): text or a key that comes first — a transport that marks a session open
    /// before it says, a transport that never says — types nothing, is counted as refused and
    /// the page is told; its clicks still work.
    @Test func aSessionTypesNothingBeforeItsTransportSaysItMay() throws {
        var rig = Rig()
        _ = rig.open(Self.one)
        let enter = try #require(Key(name: "Return"))
        #expect(rig.web(Self.one, .text("curl x | sh\n")).isEmpty && rig.reply == .untyped("curl x | sh\n", reason: Self.refusedForPhone))
        #expect(rig.web(Self.one, .key(enter)).isEmpty && rig.reply == .untyped("Return", reason: Self.refusedForPhone))
        #expect(rig.core.typingRefusals == 2 && rig.core.typingRestoreDeadline == nil)
        #expect(rig.web(Self.one, .click(.left, down: nil)).count == 1, "the page's clicks still work")
        rig.core.setTyping(Self.one, allowed: true)
        #expect(rig.web(Self.one, .text("hi")) == [.text("hi")] && rig.reply == nil, "typing once it is told")
    }

    /// Text nobody can type is decided here, not found out by the adapter: an injector that
    /// cannot type, or a desktop session that is another user's, gives the page the reason
    /// and no text output (and no keycodes to give back later); neither is a refusal.
    @Test func textNobodyCanTypeComesBackWithWhy() throws {
        var rig = Self.rig()
        rig.core.typist = .none(injector: "uinput")
        #expect(rig.web(Self.one, .text("hé")).isEmpty)
        guard case let .untyped(text, reason)? = rig.reply else { Issue.record("no reply"); return }
        #expect(text == "hé" && reason.hasPrefix("the uinput injector cannot type text; run the host with --inject xtest"))
        rig.core.typist = .injector
        _ = rig.core.setSuspended(true)
        #expect(rig.web(Self.one, .text("x")).isEmpty)
        #expect(rig.reply == .untyped("x", reason: "this computer's desktop session is not the active one (another user is at the screen)"))
        #expect(rig.core.typingRefusals == 0 && rig.core.typingRestoreDeadline == nil)
        _ = rig.core.setSuspended(false)
        #expect(rig.web(Self.one, .text("x")) == [.text("x")] && rig.reply == nil)
    }

    @Test func touchpadMovesAndScrollsWithTheSessionsLiveSettings() throws {
        var rig = Self.rig()
        #expect(rig.web(Self.one, .pad(dx: 10, dy: -5, millis: 100)) == [.input(.moveBy(dx: 16, dy: -8))], "slow: gain 1.6")
        #expect(rig.web(Self.one, .scroll(dx: 0, dy: 48)) == [.input(.wheel(dx: 0, dy: 2))], "24 CSS px a wheel step")
        #expect(rig.web(Self.one, .scroll(dx: 0, dy: 12)).isEmpty, "half a step is kept")
        #expect(rig.web(Self.one, .scroll(dx: 0, dy: 12)) == [.input(.wheel(dx: 0, dy: 1))], "and adds up")
        #expect(rig.web(Self.one, .pad(dx: 0.25, dy: 0, millis: 100)).isEmpty, "a fraction of a pixel is kept")
        #expect(rig.web(Self.one, .pad(dx: 0.5, dy: 0, millis: 100)) == [.input(.moveBy(dx: 1, dy: 0))])
        var settings = MappingSettings()
        try settings.set("touchpad.speed", to: "1")
        try settings.set("touchpad.scroll_step", to: "10")
        rig.core.update(settings: settings)
        #expect(rig.web(Self.one, .pad(dx: 10, dy: 0, millis: 100)) == [.input(.moveBy(dx: 10, dy: 0))])
        #expect(rig.web(Self.one, .scroll(dx: 0, dy: -30)) == [.input(.wheel(dx: 0, dy: -3))])
        #expect(rig.out.map(\.kind) == [.input])
    }

    @Test func aClickIsPressAndReleaseOrOneEdgeOfADrag() {
        var rig = Self.rig()
        #expect(rig.web(Self.one, .click(.right, down: nil)) == [.inputs([.button(.right, down: true), .button(.right, down: false)])])
        #expect(rig.web(Self.one, .click(.left, down: true)) == [.input(.button(.left, down: true))])
        // Exactly once is the injector's tracker's (HostPipelineWebInputTests): the core says each edge.
        #expect(rig.web(Self.one, .click(.left, down: false)) == [.input(.button(.left, down: false))])
        #expect(rig.close(Self.one).first == .releaseHeld, "a drag the page never ended is released with the session")
    }

    @Test func aKeyIsPressedAndReleased() throws {
        var rig = Self.rig()
        let enter = try #require(Key(name: "Return"))
        #expect(rig.web(Self.one, .key(enter)) == [.inputs([.key(enter, down: true), .key(enter, down: false)])])
        #expect(rig.reply == nil && rig.core.typingRefusals == 0)
    }

    @Test func textIsForTheHostToTypeAndItsKeycodesComeBackADelayLater() {
        var rig = Self.rig()
        #expect(rig.core.typingRestoreDeadline == nil)
        rig.now = .seconds(10)
        #expect(rig.web(Self.one, .text("é😀")) == [.text("é😀")] && rig.reply == nil)
        #expect(rig.out.map(\.kind) == [.text])
        #expect(rig.core.typingRestoreDeadline == .seconds(11))
        rig.now = .seconds(10.5)
        _ = rig.web(Self.one, .text("!"))
        #expect(rig.core.typingRestoreDeadline == .seconds(11.5), "a newer text postpones it")
        let due = [11, 11.5, 12].map { rig.core.typingRestoreDue(now: .seconds($0)) }
        #expect(due == [false, true, false], "due at the deadline, once")
        #expect(rig.core.typingRestoreDeadline == nil)
    }

    @Test func typingOffForTheHostOrThePhoneTypesNothingAndTellsThePage() throws {
        var rig = Self.rig()
        let tab = try #require(Key(name: "Tab"))
        rig.core.setTyping(Self.one, allowed: false)
        #expect(rig.web(Self.one, .text("rm -rf ~\n")).isEmpty && rig.reply == .untyped("rm -rf ~\n", reason: Self.refusedForPhone))
        #expect(rig.web(Self.one, .key(tab)).isEmpty && rig.reply == .untyped("Tab", reason: Self.refusedForPhone))
        #expect(rig.web(Self.one, .click(.left, down: nil)).count == 1, "the page's clicks still work")
        rig.core.setTyping(Self.one, allowed: true)
        rig.core.typingAllowed = false                                   // remotion host --no-typing
        #expect(rig.web(Self.one, .key(tab)).isEmpty && rig.reply == .untyped("Tab", reason: Self.refusedForHost))
        #expect(rig.web(Self.one, .text("hi")).isEmpty && rig.reply == .untyped("hi", reason: Self.refusedForHost))
        #expect(rig.core.typingRefusals == 4)
        #expect(rig.core.typingRestoreDeadline == nil, "nothing typed, nothing borrowed")
    }

    /// 200 characters a second, bursts of 1000 (`TextBudget`), per session.
    @Test func textOverTheBudgetIsRefusedUntilTimeRefillsIt() {
        var rig = Self.rig()
        let burst = String(repeating: "a", count: TextBudget.burst)
        #expect(rig.web(Self.one, .text(burst)) == [.text(burst)])
        #expect(rig.web(Self.one, .text("b")).isEmpty && rig.reply == .untyped("b", reason: Self.tooFast))
        #expect(rig.core.typingRefusals == 1)
        rig.now = .milliseconds(10)                                       // two characters' worth
        #expect(rig.web(Self.one, .text("cd")) == [.text("cd")] && rig.reply == nil)
        #expect(rig.web(Self.one, .text("e")).isEmpty && rig.reply == .untyped("e", reason: Self.tooFast))
        rig.now = .seconds(1)
        #expect(rig.web(Self.one, .text("allowed again")) == [.text("allowed again")])
        #expect(rig.core.typingRefusals == 2)
    }

    @Test func theLaserStartsWhereTheSessionsPointerIs() throws {
        var rig = Self.rig()
        #expect(rig.web(Self.one, .laser(on: true)) == [.laser(on: true, from: nil)], "no pointer yet")
        #expect(rig.out.map(\.kind) == [.laser])
        let moved = rig.motion(Self.one, PipelineCoreTests.attitude(0.1, at: 1_000))
        guard case let .input(.moveTo(x, y))? = moved.first else { Issue.record("expected a moveTo, got \(moved)"); return }
        #expect(rig.web(Self.one, .laser(on: true)) == [.laser(on: true, from: ScreenPoint(x: x, y: y))])
        #expect(rig.web(Self.one, .laser(on: false)) == [.laser(on: false, from: ScreenPoint(x: x, y: y))])
    }

    @Test func aSessionThatIsNotOpenGetsNothing() throws {
        var rig = Self.rig()
        rig.core.typingAllowed = false
        let other = SessionID(2)
        let messages: [WebInputMessage] = [.pad(dx: 10, dy: 10, millis: 16), .scroll(dx: 0, dy: 48), .click(.left, down: nil),
                                           .click(.left, down: true), .key(try #require(Key(name: "Return"))), .text("hi"),
                                           .laser(on: true)]
        for message in messages {
            #expect(rig.web(other, message).isEmpty && rig.reply == nil, "\(message)")
        }
        _ = rig.close(Self.one)
        #expect(rig.web(Self.one, .text("hi")).isEmpty && rig.reply == nil, "a closed session is not open")
        rig.core.setTyping(other, allowed: true)
        #expect(rig.core.sessions.isEmpty && rig.core.typingRefusals == 0)
    }
}

extension PipelineCoreTests.Rig {
    /// The page's message of `id` now: the outputs (also in `out`) and the reply in `reply`.
    mutating func web(_ id: SessionID, _ message: WebInputMessage) -> [PipelineOutput] {
        out.removeAll()
        reply = core.webInput(id, message, now: now, into: &out)
        return out
    }
}
