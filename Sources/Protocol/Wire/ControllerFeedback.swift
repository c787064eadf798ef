/// What a game asks of the controller in its hand (host → client, message `feedback`
/// 0x07, docs/PROTOCOL.md §3.7): how hard its two rumble motors run, and the colour of its
/// light, where the game set one. The host forwards a virtual pad's output reports this
/// way (docs/GAMEPAD.md "Rumble and lightbar"); a phone vibrates and shows the colour.
public struct ControllerFeedback: Hashable, Sendable {
    /// An RGB colour, 0…255 each.
    public struct Color: Hashable, Sendable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8) { self.red = red; self.green = green; self.blue = blue }
        /// "#rrggbb".
        public var hex: String {
            "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// The heavy, low-frequency motor (a DualSense's left), 0 = off … 255 = full.
    public var rumbleLow: UInt8
    /// The light, high-frequency motor (its right).
    public var rumbleHigh: UInt8
    /// The light's colour, nil when the game never set one.
    public var lightbar: Color?

    public init(rumbleLow: UInt8 = 0, rumbleHigh: UInt8 = 0, lightbar: Color? = nil) {
        self.rumbleLow = rumbleLow; self.rumbleHigh = rumbleHigh; self.lightbar = lightbar
    }

    /// Either motor runs.
    public var isRumbling: Bool { rumbleLow > 0 || rumbleHigh > 0 }
}
