import Foundation
import RemotionProtocol

/// The page's touchpad, typing and presenter messages (docs/WEB-CONTROLLER.md, "What each control does by default"):
/// JSON text frames beside the commands of `WebClientMessage`, decoded here so that the
/// older messages stay untouched. Anything malformed is nil (counted and dropped by the
/// socket), never a crash, never an injection.
package enum WebInputMessage: Sendable, Equatable {
    /// Touchpad: the fingers moved by (dx, dy) CSS pixels over `millis` ms.
    case pad(dx: Double, dy: Double, millis: Double)
    /// Two-finger scroll (or the pointer mode's scroll strip): content moves by (dx, dy)
    /// CSS pixels; positive dy scrolls up (the page applies natural/normal).
    case scroll(dx: Double, dy: Double)
    /// A tap (`down` nil: press and release) or one edge of a drag (`down` true/false).
    case click(MouseButton, down: Bool?)
    /// Text to type as characters (the phone keyboard's input, IME and emoji included).
    case text(String)
    /// One named key pressed and released (Return, BackSpace, Tab, arrows, …).
    case key(Key)
    /// The presenter's laser: while on, this phone's pointer output draws the overlay dot.
    case laser(on: Bool)

    /// The most characters one text message may carry.
    package static let maxText = 256
    /// The most CSS pixels one move or scroll message may carry (a finger across a tablet).
    package static let maxDelta = 4000.0
    /// Keys the page may name (anything else is dropped).
    package static let keys: Set<String> = ["Return", "BackSpace", "Tab", "Escape", "Delete", "Left", "Right",
                                            "Up", "Down", "Home", "End", "Page_Up", "Page_Down", "space"]

    private struct Wire: Decodable {
        var type: String
        var dx: Double?
        var dy: Double?
        var ms: Double?
        var button: String?
        var down: Bool?
        var text: String?
        var key: String?
        var on: Bool?
    }

    /// Parses one text frame; nil when it is not one of these messages or is malformed.
    package static func parse(_ text: String) -> WebInputMessage? {
        guard text.utf8.count <= WebClientMessage.maxLength * 2,
              let w = try? JSONDecoder().decode(Wire.self, from: Data(text.utf8)) else { return nil }
        func delta(_ v: Double?) -> Double? {
            guard let v, v.isFinite, abs(v) <= maxDelta else { return nil }
            return v
        }
        switch w.type {
        case "pad":
            guard let dx = delta(w.dx), let dy = delta(w.dy) else { return nil }
            let ms = w.ms.flatMap { $0.isFinite && $0 >= 0 ? min($0, 1000) : nil } ?? 16
            return .pad(dx: dx, dy: dy, millis: ms)
        case "scroll":
            guard let dx = delta(w.dx ?? 0), let dy = delta(w.dy) else { return nil }
            return .scroll(dx: dx, dy: dy)
        case "click":
            guard let name = w.button, let b = MouseButton(name: name), [.left, .right, .middle].contains(b) else { return nil }
            return .click(b, down: w.down)
        case "text":
            guard let t = w.text, !t.isEmpty, t.count <= maxText else { return nil }
            return .text(t)
        case "key":
            guard let name = w.key, keys.contains(name), let k = Key(name: name) else { return nil }
            return .key(k)
        case "laser":
            guard let on = w.on else { return nil }
            return .laser(on: on)
        default:
            return nil
        }
    }
}

/// What the host says back about these messages.
package enum WebInputReply: Sendable, Equatable {
    /// The host's button map, for the page's labels: one action per button A–P
    /// ("left", "key:Left", "none", …).
    case buttons([String])
    /// Characters of a text message the injector could not type (empty: none missing).
    case untyped(String, reason: String)
    /// The laser went on where no dot can be drawn (no layer shell, no overlay): it moves the
    /// pointer instead; the line says why (the page's presenter mode shows it).
    case laserMovesPointer(String)

    package var text: String {
        switch self {
        case .buttons(let names):
            return "{\"type\":\"buttons\",\"buttons\":[" + names.map(JSONText.quote).joined(separator: ",") + "]}"
        case let .untyped(chars, reason):
            return "{\"type\":\"untyped\",\"text\":\(JSONText.quote(chars)),\"message\":\(JSONText.quote(reason))}"
        case .laserMovesPointer(let line):
            return "{\"type\":\"laser\",\"dot\":false,\"message\":\(JSONText.quote(line))}"
        }
    }

    /// The map as the page shows it: A–P in order, "none" for an unmapped button.
    package static func buttons(of map: ButtonMap) -> WebInputReply {
        .buttons(Button.allCases.map { map[$0]?.description ?? "none" })
    }
}
