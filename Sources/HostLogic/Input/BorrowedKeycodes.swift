/// The record of keycodes XTest typing borrowed (docs/SECURITY.md §11.3): written before a spare
/// keycode is remapped, removed once it is emptied again, read at the next start so a host
/// that died without a clean stop (SIGKILL, a trap) leaves no altered keyboard map behind.
///
/// Text form, one line per borrowed keycode: `<keycode> <keysym in hex>`, e.g. `255 100263a`.
/// A keycode is only restored if it still carries the recorded keysym, so a map someone
/// else changed since is left alone. Pure; the X adapter reads and writes the file.
package struct BorrowedKeycodes: Sendable, Equatable {
    /// keycode → the keysym typing put there.
    package var carrying: [UInt8: UInt32]

    package init(_ carrying: [UInt8: UInt32] = [:]) { self.carrying = carrying }

    /// At most this many lines are read (more than any host borrows).
    package static let maxEntries = 256

    package var text: String {
        carrying.keys.sorted().map { "\($0) \(String(carrying[$0]!, radix: 16))\n" }.joined()
    }

    /// Lines that do not parse (or keycodes below 8, which X never uses) are skipped.
    package init(text: String) {
        var out: [UInt8: UInt32] = [:]
        for line in text.split(separator: "\n").prefix(Self.maxEntries) {
            let f = line.split(separator: " ")
            guard f.count == 2, let code = UInt8(f[0]), code >= 8, let sym = UInt32(f[1], radix: 16), sym != 0 else { continue }
            out[code] = sym
        }
        carrying = out
    }

    /// The keycodes to empty now: those whose current first keysym is still the recorded one.
    package func toRestore(current: (UInt8) -> UInt32?) -> [UInt8] {
        carrying.keys.sorted().filter { current($0) == carrying[$0] }
    }
}

extension SpareKeycodes {
    /// The spare keycodes after the keyboard map changed (MappingNotify): `spares` are the
    /// codes free for typing now (empty, or still carrying what typing put there);
    /// assignments to codes no longer among them are forgotten (someone else owns them now).
    package func rebased(on spares: [UInt8]) -> SpareKeycodes {
        var next = SpareKeycodes(codes: spares)
        for code in spares { if let sym = carrying[code] { next.adopt(code, carrying: sym) } }
        return next.inOrder(of: self)
    }
}
