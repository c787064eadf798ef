/// Which reads from the terminal are a key press a person made on purpose (pure, no time:
/// one call per read, in order; docs/UI.md "Answering a phone"). The terminal view reads
/// stdin about ten times a second without waiting, so one read holds everything typed since
/// the last: a key pressed alone is a read of one byte. A read of more than one byte — a
/// word typed fast ("cat"), an escape sequence (arrow keys), a paste without brackets — is
/// no key. So is the read right after a non-empty one: a burst split between two reads
/// leaves its last byte alone in the second. The view turns bracketed paste on
/// (`enableBracketedPaste`), so a paste arrives between `ESC [ 2 0 0 ~` and `ESC [ 2 0 1 ~`;
/// everything inside is ignored, however many reads it spans and wherever a read splits a
/// marker. State is bounded: a mode and at most five bytes of a marker begun.
package struct TerminalKeyReads: Hashable, Sendable {
    /// What the view writes when it opens and when it closes (every exit path).
    package static let enableBracketedPaste = "\u{1B}[?2004h"
    package static let disableBracketedPaste = "\u{1B}[?2004l"

    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Inside a bracketed paste (its end marker not seen yet).
    package private(set) var inPaste = false
    /// The start of a marker a read ended in (a strict prefix of the marker looked for).
    private var partial: [UInt8] = []
    /// The last read was empty: nothing was arriving just before.
    private var quiet = true

    package init() {}

    /// The key of this read when it is one key pressed alone (one byte, outside a paste,
    /// after a quiet read, with no marker begun); nil otherwise. Every read must be passed,
    /// empty ones too: they are what tells a key pressed alone from a burst.
    package mutating func key(in read: [UInt8]) -> UInt8? {
        let wasQuiet = quiet
        quiet = read.isEmpty
        guard !read.isEmpty else { return nil }
        let hadPartial = !partial.isEmpty
        let wasInPaste = inPaste
        scan(read)
        guard read.count == 1, wasQuiet, !hadPartial, !wasInPaste, !inPaste, partial.isEmpty else { return nil }
        return read[0]
    }

    /// Follows the paste markers through `read`, with what an earlier read left begun.
    private mutating func scan(_ read: [UInt8]) {
        for byte in read {
            partial.append(byte)
            let marker = inPaste ? Self.pasteEnd : Self.pasteStart
            if partial == marker {
                inPaste.toggle()
                partial.removeAll()
            } else if !marker.starts(with: partial) {
                // Not the marker: the byte may begin one afresh (ESC ESC [ 2 0 0 ~).
                partial = byte == 0x1B ? [byte] : []
            }
        }
    }
}
