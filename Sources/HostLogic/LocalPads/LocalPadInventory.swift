/// What `--local-pads` found on this computer, for the dashboard and the terminal view
/// (docs/LOCAL-PADS.md, "In the dashboard and the terminal view"): the pads it reads, and the
/// motion-sensor nodes it does not read with why and what fixes it. Only the nodes present
/// now: it is rebuilt at every rescan, so it never grows with the past. Its JSON (the status's
/// `localPads`) is the synthesized coding, field names as declared.
package struct LocalPadInventory: Sendable, Equatable, Codable {
    package struct Pad: Sendable, Equatable, Codable {
        /// The pad's name (and uniq), as its controller is named.
        package var name: String
        /// Its Motion Sensors node, and the gamepad node paired with it (nil: none found).
        package var motionNode: String
        package var gamepadNode: String?
        /// The driver's axis convention ("playstation", "nintendo", "steam").
        package var driver: String
        /// Read only by Remotion (EVIOCGRAB held).
        package var grabbed: Bool
        /// A game's rumble can reach it (its gamepad node takes FF_RUMBLE and is writable).
        package var rumble: Bool

        package init(name: String, motionNode: String, gamepadNode: String?, driver: String, grabbed: Bool, rumble: Bool) {
            self.name = name; self.motionNode = motionNode; self.gamepadNode = gamepadNode
            self.driver = driver; self.grabbed = grabbed; self.rumble = rumble
        }
    }

    package struct Skipped: Sendable, Equatable, Codable {
        package var node: String
        package var name: String
        /// Why it is not read, and the fix when there is one, in one sentence.
        package var reason: String

        package init(node: String, name: String, reason: String) {
            self.node = node; self.name = name; self.reason = reason
        }
    }

    package var reading: [Pad] = []
    package var skipped: [Skipped] = []

    package init(reading: [Pad] = [], skipped: [Skipped] = []) {
        self.reading = reading; self.skipped = skipped
    }

    /// The terminal view's lines: the pads read, then each node skipped with why.
    package var lines: [String] {
        let read = reading.map { p in
            "\(p.name) (\(p.motionNode)\(p.grabbed ? ", grabbed" : "")\(p.rumble ? ", rumble" : ""))"
        }
        return ["local pads: " + (read.isEmpty ? "none read" : "reading " + read.joined(separator: ", "))]
            + skipped.map { "local pads: not reading \($0.node) (\($0.name)): \($0.reason)" }
    }
}
