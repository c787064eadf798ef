/// The screen shown while no controller is connected: the host name as a
/// pixel-font banner, where the host listens and how to connect a controller.
public struct WelcomeView: Hashable, Sendable {
    /// Terminal columns available; every line fits.
    public var width: Int
    public static let indent = "  "

    public init(width: Int = 80) { self.width = max(20, width) }

    public func lines(for host: HostStatus, font: inout PixelFont) -> [String] {
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
        out.append("")
        out.append(Self.indent + "waiting for controllers…")
        return out.map { TextFormat.truncate($0, width) }
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
