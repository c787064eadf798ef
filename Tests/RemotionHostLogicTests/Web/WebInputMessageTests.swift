import RemotionHostLogic
import RemotionProtocol
import Testing

/// The page's touchpad, typing and laser messages (Sources/App/Web/Page/app/modes.js
/// builds them): what parses, and that malformed or hostile ones are nil, never a crash.
@Suite struct WebInputMessageTests {
    @Test func theMessagesThePageSends() {
        #expect(WebInputMessage.parse(#"{"type":"pad","dx":3.5,"dy":-2,"ms":16}"#) == .pad(dx: 3.5, dy: -2, millis: 16))
        #expect(WebInputMessage.parse(#"{"type":"pad","dx":1,"dy":1}"#) == .pad(dx: 1, dy: 1, millis: 16))
        #expect(WebInputMessage.parse(#"{"type":"scroll","dx":0,"dy":-24}"#) == .scroll(dx: 0, dy: -24))
        #expect(WebInputMessage.parse(#"{"type":"click","button":"left"}"#) == .click(.left, down: nil))
        #expect(WebInputMessage.parse(#"{"type":"click","button":"right","down":true}"#) == .click(.right, down: true))
        #expect(WebInputMessage.parse(#"{"type":"text","text":"é ß 😀"}"#) == .text("é ß 😀"))
        #expect(WebInputMessage.parse(#"{"type":"key","key":"BackSpace"}"#) == .key(Key(keysym: 0xff08)))
        #expect(WebInputMessage.parse(#"{"type":"key","key":"Return"}"#) == .key(Key(keysym: 0xff0d)))
        #expect(WebInputMessage.parse(#"{"type":"laser","on":true}"#) == .laser(on: true))
    }

    @Test func malformedOrHostileMessagesAreDropped() {
        let bad = [
            "", "{", "[]", "null", #"{"type":"pad"}"#, #"{"type":"pad","dx":1e308,"dy":0}"#,
            #"{"type":"pad","dx":5000,"dy":0}"#, #"{"type":"click","button":"back"}"#,
            #"{"type":"click","button":"nope"}"#, #"{"type":"text","text":""}"#,
            #"{"type":"key","key":"Super_L"}"#, #"{"type":"key","key":"F4"}"#, #"{"type":"laser"}"#,
            #"{"type":"hello","v":1}"#, #"{"type":"text","text":""# + String(repeating: "a", count: 257) + #""}"#,
            String(repeating: " ", count: 5000),
        ]
        for text in bad { #expect(WebInputMessage.parse(text) == nil, "\(text.prefix(60))") }
        // The older messages are not taken for these.
        #expect(WebInputMessage.parse(#"{"type":"command","command":"recenter"}"#) == nil)
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 21)
        let pieces = ["{", "}", "\"type\"", ":", "\"pad\"", "\"text\"", ",", "\"dx\"", "1e9", "-0", "\"\\u0000\"", "[", "]", "true"]
        for _ in 0..<5000 {
            let text = (0..<Int(rng.next() % 12)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            _ = WebInputMessage.parse(text)
        }
    }

    @Test func repliesAreJSON() {
        let map = WebInputReply.buttons(of: .seedDefault).text
        #expect(map.hasPrefix(#"{"type":"buttons","buttons":["left","right","key:Left","key:Right","key:Up","key:Down","key:i""#))
        #expect(WebInputReply.untyped("é\"", reason: "no").text == #"{"type":"untyped","text":"é\"","message":"no"}"#)
        #expect(WebInputReply.laserMovesPointer("no \"dot\"").text == #"{"type":"laser","dot":false,"message":"no \"dot\""}"#)
    }
}
