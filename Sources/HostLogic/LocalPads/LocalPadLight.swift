import RemotionProtocol

/// A game's light colour back to a gamepad on this computer (docs/LOCAL-PADS.md "Light"):
/// what to write into which of the pad's LED class devices in sysfs. Sans-IO: the adapter
/// (the local-pads reader thread) lists the LED devices under the pad's HID device, reads
/// their attributes through `read`, and writes what `writes(for:)` returns.
///
/// The drivers lay the light out differently:
/// - hid-playstation (DualSense; DualShock 4 from 6.2): one multicolor LED
///   `<input>:rgb:indicator`, `multi_intensity` one value per colour in `multi_index`'s order,
///   and `brightness`; the driver sends intensity × brightness / max_brightness per colour,
///   so the brightness is written at its maximum and the intensities are the colour.
/// - hid-sony (DualShock 4 before 6.2): `<hid-id>:red`, `:green`, `:blue`, each a
///   `brightness` of its own, scaled to its `max_brightness`.
/// - hid-nintendo has no RGB light (player LEDs and a home LED only): `layout` is nil.
///
/// A colour is written only when it changes: the host refreshes a running rumble's feedback
/// every 500 ms (`FeedbackPacer.refreshInterval`) with the same colour in it.
package struct LocalPadLight: Sendable, Equatable {
    /// One LED class device: its directory in sysfs and its `max_brightness`.
    package struct LED: Sendable, Equatable {
        package var directory: String
        package var maxBrightness: Int
        package init(directory: String, maxBrightness: Int) { self.directory = directory; self.maxBrightness = maxBrightness }
    }

    package enum Layout: Sendable, Equatable {
        /// hid-playstation's `:rgb:indicator`; `order` is its `multi_index` ("red green blue").
        case multicolor(LED, order: [String])
        /// hid-sony's three LEDs.
        case channels(red: LED, green: LED, blue: LED)
    }

    /// One sysfs attribute and the text to write into it.
    package struct Write: Sendable, Equatable {
        package var path: String
        package var text: String
        package init(path: String, text: String) { self.path = path; self.text = text }
    }

    package let layout: Layout
    /// The last colour asked for (written, or refused: it is not tried again until it changes).
    package private(set) var shown: ControllerFeedback.Color?
    /// Writes refused (EACCES, EPERM): counted with the pad's drops as `light-denied`.
    package private(set) var refused = 0

    package init(layout: Layout) { self.layout = layout }

    /// The pad's light from the names of the LED devices in `leds` (its HID device's `leds`
    /// directory) and their attributes (`read`: a path's text without its newline); nil when
    /// it has no RGB light Remotion knows.
    package static func layout(leds: String, names: [String], read: (String) -> String?) -> Layout? {
        func led(_ name: String) -> LED? {
            let directory = "\(leds)/\(name)"
            guard let max = read("\(directory)/max_brightness").flatMap({ Int($0) }), max > 0 else { return nil }
            return LED(directory: directory, maxBrightness: max)
        }
        let sorted = names.sorted()
        if let name = sorted.first(where: { $0.hasSuffix(":rgb:indicator") }), let rgb = led(name) {
            let order = (read("\(rgb.directory)/multi_index") ?? "red green blue").split(separator: " ").map(String.init)
            // Every colour it names must be one Remotion has (a fourth one would get nothing).
            guard !order.isEmpty, Set(order).isSubset(of: ["red", "green", "blue"]) else { return nil }
            return .multicolor(rgb, order: order)
        }
        func named(_ colour: String) -> LED? { sorted.first { $0.hasSuffix(":\(colour)") }.flatMap(led) }
        if let red = named("red"), let green = named("green"), let blue = named("blue") {
            return .channels(red: red, green: green, blue: blue)
        }
        return nil
    }

    /// What to write for the colour of a feedback: nothing when it has none (the game never
    /// set one) or it is the colour already asked for.
    package mutating func writes(for colour: ControllerFeedback.Color?) -> [Write] {
        guard let colour, colour != shown else { return [] }
        shown = colour
        switch layout {
        case let .multicolor(led, order):
            let values = order.map { Self.scaled(Self.channel($0, of: colour), to: led.maxBrightness) }
            return [Write(path: "\(led.directory)/multi_intensity", text: values.map(String.init).joined(separator: " ")),
                    Write(path: "\(led.directory)/brightness", text: String(led.maxBrightness))]
        case let .channels(red, green, blue):
            return [(red, colour.red), (green, colour.green), (blue, colour.blue)].map { led, value in
                Write(path: "\(led.directory)/brightness", text: String(Self.scaled(value, to: led.maxBrightness)))
            }
        }
    }

    /// A write refused for want of permission: counted; true the first time (said once per pad).
    package mutating func noteRefused() -> Bool {
        refused += 1
        return refused == 1
    }

    /// The one line for a refused write, with the fix.
    package static func refusal(pad: String, path: String) -> String {
        "local pads: cannot set the light of \(pad): \(path) is not writable for this user: install the opt-in rule "
            + "60-remotion-pad-light.rules (every local account may then set PlayStation pads' light: docs/LOCAL-PADS.md)"
    }

    /// 0…255 to 0…max, rounded (255 is max exactly).
    package static func scaled(_ value: UInt8, to max: Int) -> Int { (Int(value) * max + 127) / 255 }

    static func channel(_ name: String, of colour: ControllerFeedback.Color) -> UInt8 {
        switch name {
        case "red": colour.red
        case "green": colour.green
        default: colour.blue
        }
    }
}
