import RemotionProtocol

/// The screen shown while no controller is connected: the host name as a
/// pixel-font banner, where the host listens and how to connect a controller.
package struct WelcomeView: Hashable, Sendable {
    /// Terminal columns available; every line fits.
    package var width: Int
    package static let indent = "  "

    package init(width: Int = 80) { self.width = max(20, width) }

    package func lines(for host: HostStatus, font: inout PixelFont) -> [String] {
        let name = TextFormat.sanitize(host.name)
        var out = [""]
        let bannerColumns = width - Self.indent.count
        for textLine in font.wrap(name.isEmpty ? "REMOTION" : name, maxColumns: bannerColumns) {
            out += font.terminalLines(textLine).map { Self.indent + $0 }
        }
        out.append("")
        out += fitting(Self.indent + "remotion host \"\(name)\" listening on UDP port \(host.port)",
                       or: [Self.indent + "listening on UDP port \(host.port)"])
        out += wrapList(label: "addresses: ", host.addresses.map(TextFormat.sanitize),
                        empty: "none found")
        let target = host.connectTarget.map(TextFormat.sanitize)
            ?? HostStatus.endpoint(address: name.isEmpty ? "HOST" : name, port: host.port)
        let command = "remotion client --host \(target)"
        out += fitting(Self.indent + "connect with: " + command,
                       or: [Self.indent + "connect with:", Self.indent + Self.indent + command])
        if let hint = host.pairingHint.map(TextFormat.sanitize), !hint.isEmpty {
            out.append(Self.indent + hint)
        }
        out += host.notes.map { Self.indent + TextFormat.sanitize($0) }
        if let phone = host.phonePairing {
            out.append("")
            out.append(Self.indent + "pair a phone: scan this code with its camera (works once, for 5 minutes)")
            // The code is drawn only where it fits whole: a cut code cannot be scanned.
            if phone.qrLines.allSatisfy({ Self.indent.count + $0.count <= width }) {
                out += phone.qrLines.map { Self.indent + $0 }
                // The link in pieces that fit (a cut link is of no use; it has no spaces).
                var rest = Substring(TextFormat.sanitize(phone.url))
                let piece = max(10, width - Self.indent.count)
                var link: [String] = []
                while !rest.isEmpty { link.append(Self.indent + rest.prefix(piece)); rest = rest.dropFirst(piece) }
                return out.map { TextFormat.truncate($0, width) } + link + ["", Self.indent + "waiting for controllers…"]
            }
            out.append(Self.indent + "(widen the terminal to see the code) or open " + TextFormat.sanitize(phone.url))
        }
        out.append("")
        out.append(Self.indent + "waiting for controllers…")
        out += Self.recentLines(host.recent)
        return out.map { TextFormat.truncate($0, width) }
    }

    /// "last events:" and the lines, indented (nothing when there are none).
    static func recentLines(_ recent: [String]) -> [String] {
        guard !recent.isEmpty else { return [] }
        return ["", indent + "last events:"] + recent.map { indent + indent + TextFormat.sanitize($0) }
    }

    /// `line` when it fits the width, otherwise `fallback`.
    func fitting(_ line: String, or fallback: [String]) -> [String] {
        line.count <= width ? [line] : fallback
    }

    /// "label a  b  c", continuing on indented lines when the items do not fit.
    func wrapList(label: String, _ items: [String], empty: String) -> [String] {
        let first = Self.indent + label
        let continuation = String(repeating: " ", count: first.count)
        guard !items.isEmpty else { return [first + empty] }
        var out: [String] = []
        var line = first
        var lineHasItem = false
        for item in items {
            let candidate = lineHasItem ? line + "  " + item : line + item
            if lineHasItem, candidate.count > width {
                out.append(line)
                line = continuation + item
            } else {
                line = candidate
            }
            lineHasItem = true
        }
        out.append(line)
        return out
    }
}

/// The screen shown while controllers are connected: one block per controller
/// with its state, link quality, attitude gauges and held buttons.
///
///     ● 0000abcd  Pixel 7  192.168.1.20:50123                     connected
///       mode pointer   pointer 960,540   60.0 pkt/s   loss 0.5%   latency 4.1/12.3 ms (p50/p99)
///       roll ─────┼●────  +12.3°   pitch ──●──┼─────  -45.0°   yaw ─────●─────   +0.0°
///       buttons ·B··E···········   held mouse:left key:Shift_L
///       gyro calibrated 100% · bias +0.01 -0.02 +0.00 °/s · still    (controllers with gyro)
///            drift 0.42 °/min at rest · calibrated 3 min ago          (once known)
///
/// followed by the host's facts and its last events.
package struct ControlView: Hashable, Sendable {
    package var width: Int
    /// Cells of one attitude gauge; the centre cell marks zero.
    package static let gaugeWidth = 11
    package static let indent = "  "

    package init(width: Int = 80) { self.width = max(40, width) }

    package func lines(for snapshot: StatusSnapshot) -> [String] {
        let host = snapshot.host
        let count = snapshot.controllers.count
        var out = ["remotion · \(TextFormat.sanitize(host.name)) · UDP port \(host.port) · "
                   + "\(count) controller\(count == 1 ? "" : "s")"]
        if snapshot.controllers.isEmpty {
            out += ["", Self.indent + "no controllers connected"]
        }
        for controller in snapshot.controllers {
            out.append("")
            out += block(for: controller)
        }
        if !host.notes.isEmpty { out.append("") }
        out += host.notes.map { Self.indent + TextFormat.sanitize($0) }
        out += WelcomeView.recentLines(host.recent)
        return out.map { TextFormat.truncate($0, width) }
    }

    /// The lines of one controller's block.
    package func block(for c: ControllerStatus) -> [String] {
        let state = c.state.rawValue
        let left = "\(Self.symbol(c.state)) \(c.session)  "
        let address = TextFormat.sanitize(c.address)
        let nameRoom = max(4, width - left.count - address.count - state.count - 3)
        let name = TextFormat.truncate(TextFormat.sanitize(c.name), nameRoom)
        // The paired name, then the address; the address alone when the name is unknown.
        let head = left + (name.isEmpty ? address : name + "  " + address)
        let header = TextFormat.padRight(head, width - state.count) + state

        var link = Self.indent + "mode \(TextFormat.sanitize(c.mappingMode))"
        link += "   pointer " + (c.pointer.map { "\($0.x),\($0.y)" } ?? "-")
        link += "   \(TextFormat.fixed(c.link.packetsPerSecond, 1)) pkt/s"
        link += "   loss \(TextFormat.fixed(c.link.lossPercent, 1))%"
        link += "   latency " + Self.latency(c.link)

        let attitude: String
        if let a = c.attitude {
            attitude = Self.indent + [("roll", a.roll), ("pitch", a.pitch), ("yaw", a.yaw)]
                .map { "\($0.0) \(Self.gauge($0.1)) \(Self.degrees($0.1))" }
                .joined(separator: "   ")
        } else {
            attitude = Self.indent + "attitude -"
        }
        let held = c.held.isEmpty ? "-" : c.held.map(\.label).joined(separator: " ")
        let buttons = Self.indent + "buttons \(Self.buttonStrip(c.buttons))   held \(held)"
        guard let gyro = c.gyro else { return [header, link, attitude, buttons] }
        let lines = [header, link, attitude, buttons, Self.indent + "gyro " + gyro.summary]
        // Under it: the residual drift at rest and the calibration's age, once known.
        return lines + (gyro.driftSummary.map { [Self.indent + "     " + $0] } ?? [])
    }

    static func symbol(_ state: ControllerState) -> String {
        switch state {
        case .connecting: "◌"
        case .connected: "●"
        case .closing: "○"
        }
    }

    /// "4.1/12.3 ms", "-" parts while not measured.
    static func latency(_ link: LinkStats) -> String {
        let p50 = link.latencyP50Millis.map { TextFormat.fixed($0, 1) } ?? "-"
        let p99 = link.latencyP99Millis.map { TextFormat.fixed($0, 1) } ?? "-"
        return "\(p50)/\(p99) ms"
    }

    /// A horizontal gauge for an angle in [-π, π]: "─────┼●────" with ● at the angle,
    /// ┼ at zero (● covers it at zero). The scale is a square root, so a hand's small
    /// turns move it and ±180° still fits: with 11 cells ±5° is one cell from the centre,
    /// ±20° two, ±45° three (rounded), ±180° the end. Out-of-range angles pin to the ends;
    /// NaN shows no marker.
    package static func gauge(_ radians: Double, width: Int = gaugeWidth) -> String {
        let w = max(3, width)
        let centre = w / 2
        var cells = [Character](repeating: "─", count: w)
        cells[centre] = "┼"
        if radians.isFinite {
            let t = min(abs(radians), .pi) / .pi
            let offset = Int((t.squareRoot() * Double(centre)).rounded())
            let index = radians < 0 ? centre - offset : centre + offset
            cells[min(max(index, 0), w - 1)] = "●"
        }
        return String(cells)
    }

    /// "+12.3°", right-aligned in seven columns.
    static func degrees(_ radians: Double) -> String {
        TextFormat.padLeft(TextFormat.fixed(radians * 180 / .pi, 1, plusSign: true), 6) + "°"
    }

    /// Sixteen slots A…P: the letter when held, "·" otherwise.
    package static func buttonStrip(_ buttons: ButtonSet) -> String {
        String(Button.allCases.map { buttons.contains($0) ? Character($0.letter) : "·" })
    }
}
