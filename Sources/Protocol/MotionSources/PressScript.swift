
/// Scripted button presses, from flags like `--press A@1.0+0.5` (button A down at 1.0 s
/// after streaming starts, for 0.5 s). Edges come out in time order.
public struct PressScript: Sendable, Equatable {
    public struct Press: Sendable, Equatable {
        public var button: Button
        public var at: Double
        public var hold: Double
        public init(button: Button, at: Double, hold: Double) {
            self.button = button; self.at = at; self.hold = hold
        }
    }

    public struct Edge: Sendable, Equatable {
        public var t: Double
        public var button: Button
        public var down: Bool
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable, Equatable {
        public let description: String
    }

    public private(set) var edges: [Edge]
    private var next = 0

    public init(presses: [Press]) {
        edges = presses.flatMap { [Edge(t: $0.at, button: $0.button, down: true),
                                   Edge(t: $0.at + $0.hold, button: $0.button, down: false)] }
            .enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }

    /// Parses "A@1.0+0.5" (hold defaults to 0.1 s when "+HOLD" is left out).
    public static func parsePress(_ text: String) throws(ParseError) -> Press {
        let usage = "use BUTTON@START+HOLD, e.g. A@1.0+0.5 (button A to P, seconds)"
        guard let at = text.firstIndex(of: "@") else { throw ParseError(description: "--press '\(text)': missing '@'; \(usage)") }
        guard let button = Button(letter: text[..<at]) else {
            throw ParseError(description: "--press '\(text)': '\(text[..<at])' is not a button; \(usage)")
        }
        let timing = text[text.index(after: at)...]
        let parts = timing.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count <= 2, let start = Double(parts[0]), start.isFinite, start >= 0 else {
            throw ParseError(description: "--press '\(text)': bad start time; \(usage)")
        }
        var hold = 0.1
        if parts.count == 2 {
            guard let h = Double(parts[1]), h.isFinite, h > 0 else {
                throw ParseError(description: "--press '\(text)': hold must be a positive number of seconds; \(usage)")
            }
            hold = h
        }
        return Press(button: button, at: start, hold: hold)
    }

    /// Edges due at or before `t` that have not been returned yet.
    public mutating func due(until t: Double) -> [Edge] {
        var out: [Edge] = []
        while next < edges.count, edges[next].t <= t {
            out.append(edges[next])
            next += 1
        }
        return out
    }

    public var isFinished: Bool { next >= edges.count }
    public var lastEdgeTime: Double { edges.last?.t ?? 0 }
}

/// `--source` values: `synthetic:<shape>[,noise=<rad>][,seed=<n>]` or `replay:<file>`.
public enum SourceSpec: Sendable, Equatable {
    case synthetic(SyntheticMotion.Shape, noise: Double, seed: UInt64)
    case replay(path: String)

    public static func parse(_ text: String) throws(PressScript.ParseError) -> SourceSpec {
        let shapes = SyntheticMotion.Shape.allCases.map(\.rawValue).joined(separator: ", ")
        if text.hasPrefix("replay:") {
            let path = String(text.dropFirst("replay:".count))
            guard !path.isEmpty else { throw .init(description: "--source replay: needs a file, e.g. replay:trace.csv") }
            return .replay(path: path)
        }
        guard text.hasPrefix("synthetic:") else {
            throw .init(description: "--source '\(text)': use synthetic:<shape> (\(shapes)) or replay:<file.csv>")
        }
        let parts = text.dropFirst("synthetic:".count).split(separator: ",")
        guard let first = parts.first, let shape = SyntheticMotion.Shape(rawValue: String(first)) else {
            throw .init(description: "--source '\(text)': unknown shape; shapes are \(shapes)")
        }
        var noise = 0.0, seed: UInt64 = 1
        for option in parts.dropFirst() {
            let kv = option.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2, kv[0] == "noise", let v = Double(kv[1]), v >= 0, v.isFinite { noise = v }
            else if kv.count == 2, kv[0] == "seed", let v = UInt64(kv[1]) { seed = v }
            else { throw .init(description: "--source '\(text)': unknown option '\(option)'; options are noise=<radians>, seed=<integer>") }
        }
        return .synthetic(shape, noise: noise, seed: seed)
    }
}
