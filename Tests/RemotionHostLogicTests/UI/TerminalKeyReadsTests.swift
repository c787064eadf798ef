import RemotionHostLogic
import Testing

/// The terminal view answers a phone only on a key pressed alone: a word typed fast, an
/// escape sequence or a paste (bracketed, however the reads split it) is no key.
@Suite struct TerminalKeyReadsTests {
    /// Feeds the reads in order; the keys they give, one entry per read.
    func keys(_ reads: [String]) -> [UInt8?] {
        var r = TerminalKeyReads()
        return reads.map { r.key(in: Array($0.utf8)) }
    }
    let a = UInt8(ascii: "a")

    @Test func aKeyReadAloneAfterQuietIsAKey() {
        #expect(keys(["a"]) == [a])
        #expect(keys(["", "a", "", "", "d"]) == [nil, a, nil, nil, UInt8(ascii: "d")])
    }

    @Test func aReadOfMoreThanOneByteIsNoKey() {
        for read in ["cat", "aa", "ya", "a\r", "\u{1B}[D", "\u{1B}[1;5D", "\u{1B}a", "hello world and a"] {
            #expect(keys([read]) == [nil], "\(read)")
        }
    }

    @Test func aByteRightAfterABurstIsNoKey() {
        // "cat" split between two reads: the t alone, the a alone after c.
        #expect(keys(["ca", "t"]) == [nil, nil])
        #expect(keys(["c", "a", "t"]) == [UInt8(ascii: "c"), nil, nil])
        #expect(keys(["xy", "a", "", "a"]) == [nil, nil, nil, a], "after a quiet read a key counts again")
    }

    @Test func aBracketedPasteIsIgnoredWhole() {
        #expect(keys(["\u{1B}[200~a\u{1B}[201~", "", "a"]) == [nil, nil, a])
        // Split across reads, with single bytes inside and the markers cut anywhere.
        #expect(keys(["\u{1B}[200~", "", "a", "", "y", "", "\u{1B}[201~", "", "a"]) == [nil, nil, nil, nil, nil, nil, nil, nil, a])
        #expect(keys(["\u{1B}[2", "", "00~", "", "a", "", "\u{1B}", "", "[201", "", "~", "", "a"])
                == [nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, a])
        // A paste line with escape bytes of its own (not the end marker) stays a paste.
        #expect(keys(["\u{1B}[200~x\u{1B}[20", "", "0~", "", "a", "", "\u{1B}[201~", "", "a"]).last == a)
        var r = TerminalKeyReads()
        _ = r.key(in: Array("\u{1B}[200~\u{1B}[200~\u{1B}[20".utf8))
        _ = r.key(in: [])
        #expect(r.key(in: [a]) == nil && r.inPaste, "still inside the paste")
    }

    @Test func aLongPasteKeepsNoMoreThanItsState() {
        var r = TerminalKeyReads()
        _ = r.key(in: Array("\u{1B}[200~".utf8))
        for _ in 0..<10_000 { _ = r.key(in: Array(repeating: a, count: 64)); _ = r.key(in: []) }
        #expect(r.inPaste && r.key(in: [a]) == nil)
        _ = r.key(in: Array("\u{1B}[201~".utf8))
        _ = r.key(in: [])
        #expect(!r.inPaste && r.key(in: [a]) == a)
    }

    @Test func aLoneEscapeThenAKeyIsNoKeyButTheNextIs() {
        #expect(keys(["\u{1B}", "", "a", "", "a"]) == [nil, nil, nil, nil, a])
    }
}
