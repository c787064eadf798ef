import RemotionProtocol

/// Which Remotion button (A–P) each DSU button stands for. Several DSU buttons may
/// share one Remotion button (they are OR-ed); a DSU button may be unmapped.
///
/// The default follows Remotion's default `ButtonMap` (A left click, B right click,
/// C–F the arrow keys Left/Right/Up/Down, G–P the letters i j a b c d e f g h):
///
/// | DSU | Remotion | default action |
/// |---|---|---|
/// | cross (Nintendo B) | A | left click |
/// | circle (Nintendo A) | B | right click |
/// | dpad-left | C | Left |
/// | dpad-right | D | Right |
/// | dpad-up | E | Up |
/// | dpad-down | F | Down |
/// | square (Nintendo Y) | G | i |
/// | triangle (Nintendo X) | H | j |
/// | l1 | I | a |
/// | r1 | J | b |
/// | l2 | K | c |
/// | r2 | L | d |
/// | options | M | e |
/// | share | N | f |
/// | l3 | O | g |
/// | r3 | P | h |
/// | home, touch | — | unmapped (Remotion has 16 buttons; map them in the config) |
package struct DSUButtonTable: Hashable, Sendable {
    package private(set) var mapping: [DSUButton: Button]

    package init(_ mapping: [DSUButton: Button]) { self.mapping = mapping }

    package static let `default` = DSUButtonTable([
        .cross: .a, .circle: .b,
        .dpadLeft: .c, .dpadRight: .d, .dpadUp: .e, .dpadDown: .f,
        .square: .g, .triangle: .h, .l1: .i, .r1: .j, .l2: .k, .r2: .l,
        .options: .m, .share: .n, .l3: .o, .r3: .p,
    ])

    package subscript(_ b: DSUButton) -> Button? {
        get { mapping[b] }
        set { mapping[b] = newValue }
    }

    /// DSU buttons → Remotion buttons (host as a DSU client).
    package func remotionButtons(for pressed: DSUButtons) -> ButtonSet {
        var set = ButtonSet()
        for b in pressed.buttons { if let r = mapping[b] { set.insert(r) } }
        return set
    }

    /// Remotion buttons → DSU buttons (host as a DSU server): every DSU button mapped
    /// to a pressed Remotion button is pressed.
    package func dsuButtons(for pressed: ButtonSet) -> DSUButtons {
        var set = DSUButtons()
        for (d, r) in mapping where pressed.contains(r) { set.insert(d) }
        return set
    }

    /// Applies one config entry, e.g. `set("cross", to: "A")`, `set("home", to: "P")`,
    /// `set("touch", to: "none")`. Names and letters are case-insensitive. On error
    /// the table is unchanged.
    package mutating func set(_ name: String, to value: String) throws(DSUButtonTableError) {
        let trimmedName = name.trimmingSpaces, trimmedValue = value.trimmingSpaces
        guard let dsu = DSUButton(name: trimmedName) else {
            throw DSUButtonTableError(name: name, value: value, message:
                "\"\(trimmedName)\" is not a DSU button; use one of " + DSUButton.allCases.map(\.name).joined(separator: ", "))
        }
        if trimmedValue.lowercased() == "none" {
            mapping[dsu] = nil
            return
        }
        guard let r = Button(letter: trimmedValue) else {
            throw DSUButtonTableError(name: name, value: value, message:
                "\"\(trimmedValue)\" is not a Remotion button; use a letter A to P or none")
        }
        mapping[dsu] = r
    }

    /// The default table with `entries` applied in order (a config section).
    package static func parse(_ entries: [(name: String, value: String)]) throws(DSUButtonTableError) -> DSUButtonTable {
        var table = DSUButtonTable.default
        for (n, v) in entries { try table.set(n, to: v) }
        return table
    }

    /// `name = letter` lines in DSU button order, "none" for unmapped ones.
    package var configLines: [String] {
        DSUButton.allCases.map { "\($0.name) = \(mapping[$0]?.letter ?? "none")" }
    }
}

/// A bad button-table entry; `message` says what is accepted.
package struct DSUButtonTableError: Error, Hashable, Sendable, CustomStringConvertible {
    package var name: String
    package var value: String
    package var message: String
    package var description: String { "dsu.buttons.\(name): \(message)" }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
