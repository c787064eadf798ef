import RemotionProtocol

/// A phone waiting to pair, as the terminal view shows it above everything else (docs/UI.md):
///
///     ▶ phone 'Pixel 7' at 192.168.1.20:50312 asks to pair · code 4821 · 97 s left
///       a accept · d deny   (1 more waiting)
///
/// The person at the computer compares the code with the one on the phone and presses a
/// key; the answer goes to the same request `remotion devices --accept` and the dashboard
/// answer (whoever answers first wins).
package struct WaitingPhonePrompt: Hashable, Sendable {
    /// The request an answer names: `CODE-ID`.
    package var reference: String
    package var code: String
    /// From the phone (untrusted: shown sanitized).
    package var name: String
    package var address: String
    package var secondsLeft: Int
    /// Other phones waiting behind this one (shown one at a time, oldest first).
    package var othersWaiting: Int

    package init(reference: String, code: String, name: String, address: String, secondsLeft: Int, othersWaiting: Int = 0) {
        self.reference = reference
        self.code = code
        self.name = name
        self.address = address
        self.secondsLeft = secondsLeft
        self.othersWaiting = othersWaiting
    }

    /// The prompt's lines, each at most `width` wide, and a blank line after them.
    package func lines(width: Int) -> [String] {
        let who = "▶ phone '\(TextFormat.sanitize(name))' at \(TextFormat.sanitize(address)) asks to pair"
        let code = "code \(TextFormat.sanitize(self.code)) · \(max(0, secondsLeft)) s left"
        let head = who.count + 3 + code.count <= width ? [who + " · " + code] : [who, "  " + code]
        let more = othersWaiting > 0 ? "   (\(othersWaiting) more waiting)" : ""
        return (head + ["  a accept · d deny" + more, ""]).map { TextFormat.truncate($0, max(1, width)) }
    }
}

/// What a key pressed in the terminal view does to the phone it shows (pure: the time is
/// a parameter). Lower-case keys only, each pressed alone (`TerminalKeyReads`). A key answers only the request that was on the screen, and only once it
/// has been there for `settle`: a request that appears (or takes the place of another) a
/// moment before a key press is not answered by a key meant for the one before.
package struct ConsentKeys: Hashable, Sendable {
    package static let settle = Duration.seconds(1)

    package enum Action: Hashable, Sendable {
        case accept(reference: String)
        case deny(reference: String)
        /// An answer key, but the prompt changed less than `settle` ago: look again.
        case tooSoon
        /// Not an answer key, or no phone waits.
        case none
    }

    package private(set) var shown: String?
    package private(set) var since: Instant?

    package init() {}

    /// The prompt now on the screen (nil: none); a new request restarts the settle time.
    package mutating func show(_ reference: String?, now: Instant) {
        guard reference != shown else { return }
        shown = reference
        since = reference == nil ? nil : now
    }

    /// What a key pressed alone does (`TerminalKeyReads` tells one from a burst, an escape
    /// sequence or a paste, which give nil): `a`/`y` accepts, `d`/`n` denies the phone
    /// shown; other keys do nothing.
    package func action(for key: UInt8?, now: Instant) -> Action {
        guard let key, Self.acceptKeys.contains(key) || Self.denyKeys.contains(key) else { return .none }
        guard let shown, let since else { return .none }
        guard now - since >= Self.settle else { return .tooSoon }
        return Self.acceptKeys.contains(key) ? .accept(reference: shown) : .deny(reference: shown)
    }

    static let acceptKeys: Set<UInt8> = [UInt8(ascii: "a"), UInt8(ascii: "y")]
    static let denyKeys: Set<UInt8> = [UInt8(ascii: "d"), UInt8(ascii: "n")]
}
