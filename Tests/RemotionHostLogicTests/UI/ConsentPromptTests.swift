import RemotionHostLogic
import RemotionProtocol
import Testing

/// The terminal view shows the phone waiting to pair and a key answers it.
@Suite struct ConsentPromptTests {
    let prompt = WaitingPhonePrompt(reference: "4821-1a2b3c4d", code: "4821", name: "Pixel\u{1B}[2J 7",
                                    address: "192.168.1.20:50312", secondsLeft: 97, othersWaiting: 1)
    let t0 = Instant.seconds(100)
    let a = UInt8(ascii: "a"), d = UInt8(ascii: "d")

    @Test func thePromptShowsWhoAsksTheCodeTheTimeAndTheKeys() {
        let lines = prompt.lines(width: 100)
        #expect(lines == ["▶ phone 'Pixel[2J 7' at 192.168.1.20:50312 asks to pair · code 4821 · 97 s left",
                          "  a accept · d deny   (1 more waiting)", ""])
        let narrow = prompt.lines(width: 40)
        #expect(narrow.allSatisfy { $0.count <= 40 } && narrow[1] == "  code 4821 · 97 s left", "\(narrow)")
    }

    @Test func theRendererPutsThePromptAboveEitherView() throws {
        var renderer = StatusRenderer(font: try PixelFont.standard())
        for var snapshot in [Fixtures.welcome, Fixtures.busy] {
            snapshot.host.waitingPhone = prompt
            let lines = renderer.lines(for: snapshot)
            #expect(lines[0].hasPrefix("▶ phone 'Pixel[2J 7'") && lines[1].hasPrefix("  a accept · d deny"))
            snapshot.host.waitingPhone = nil
            #expect(!renderer.lines(for: snapshot).contains { $0.contains("asks to pair") })
        }
    }

    @Test func aKeyAnswersThePhoneShownOnceItHasBeenOnTheScreenASecond() {
        var keys = ConsentKeys()
        #expect(keys.action(for: a, now: t0) == .none, "no phone waits")
        keys.show("4821-1a2b3c4d", now: t0)
        #expect(keys.action(for: a, now: t0 + .milliseconds(300)) == .tooSoon)
        #expect(keys.action(for: a, now: t0 + .seconds(1)) == .accept(reference: "4821-1a2b3c4d"))
        #expect(keys.action(for: d, now: t0 + .seconds(2)) == .deny(reference: "4821-1a2b3c4d"))
        #expect(keys.action(for: UInt8(ascii: "y"), now: t0 + .seconds(2)) == .accept(reference: "4821-1a2b3c4d"), "y accepts too")
        #expect(keys.action(for: UInt8(ascii: "n"), now: t0 + .seconds(2)) == .deny(reference: "4821-1a2b3c4d"))
        keys.show("4821-1a2b3c4d", now: t0 + .seconds(5))
        #expect(keys.since == t0, "the same request keeps its time")
        // Another request takes its place (the first expired and a newer one drew the same code):
        // a key pressed just then is not taken as an answer to it.
        keys.show("4821-99999999", now: t0 + .seconds(6))
        #expect(keys.action(for: a, now: t0 + .milliseconds(6_500)) == .tooSoon)
        #expect(keys.action(for: a, now: t0 + .seconds(7)) == .accept(reference: "4821-99999999"))
        keys.show(nil, now: t0 + .seconds(8))
        #expect(keys.action(for: a, now: t0 + .seconds(20)) == .none)
    }

    @Test func otherKeysAndNoKeyAnswerNothing() {
        var keys = ConsentKeys()
        keys.show("4821-1a2b3c4d", now: t0)
        let later = t0 + .seconds(5)
        for key: UInt8? in [nil, UInt8(ascii: "q"), UInt8(ascii: "A"), UInt8(ascii: "D"), UInt8(ascii: "Y"), 0x1B, 0x0D, 0x03] {
            #expect(keys.action(for: key, now: later) == .none, "\(String(describing: key))")
        }
    }
}
