/// What absolute pointer motion covers on a desktop of several outputs (docs/INJECTION.md,
/// "The wlroots injector"): the output the person chose (`--output`, `[inject] output`), or
/// the whole layout's bounding box when none is chosen or the chosen one is not there (it was
/// disabled). Pure: the injector asks it again whenever the compositor's outputs change.
package enum PointerArea: Sendable, Hashable {
    /// One output of the layout, in logical pixels.
    package struct Output: Sendable, Hashable, Codable, CustomStringConvertible {
        package var name: String
        package var x: Int, y: Int, width: Int, height: Int, scale: Int
        package init(name: String, x: Int, y: Int, width: Int, height: Int, scale: Int) {
            self.name = name; self.x = x; self.y = y; self.width = width; self.height = height; self.scale = scale
        }
        package var description: String {
            "\(name.isEmpty ? "(unnamed)" : name) \(width)x\(height) at \(x),\(y) scale \(scale)"
        }
    }

    case output(Output)
    case layout(width: Int, height: Int)

    /// The area for `chosen` among `outputs`.
    package static func choose(_ chosen: String?, among outputs: [Output]) -> PointerArea {
        if let chosen, let o = outputs.first(where: { $0.name == chosen }) { return .output(o) }
        guard !outputs.isEmpty else { return .layout(width: 1, height: 1) }
        let minX = outputs.map(\.x).min() ?? 0, minY = outputs.map(\.y).min() ?? 0
        let maxX = outputs.map { $0.x + $0.width }.max() ?? 1, maxY = outputs.map { $0.y + $0.height }.max() ?? 1
        return .layout(width: max(1, maxX - minX), height: max(1, maxY - minY))
    }

    /// The size absolute motion spans (at least 1 x 1).
    package var size: (width: Int, height: Int) {
        switch self {
        case .output(let o): (max(1, o.width), max(1, o.height))
        case .layout(let w, let h): (max(1, w), max(1, h))
        }
    }

    /// The output the pointer is bound to, nil for the whole layout.
    package var outputName: String? {
        if case .output(let o) = self { return o.name }
        return nil
    }

    /// The one line the host says when the person chose an output while it runs (the dashboard).
    package var chosenLine: String {
        switch self {
        case .output(let o): "the pointer covers output \"\(o.name)\" now (\(o.description)), chosen in the dashboard"
        case .layout(let w, let h): "the pointer covers the whole layout (\(w)x\(h)) now"
        }
    }

    /// The one line the host says when the outputs changed from `old` to `self`; nil when
    /// nothing the pointer covers changed.
    package func change(from old: PointerArea, outputs: [Output]) -> String? {
        guard self != old else { return nil }
        let list = outputs.isEmpty ? "none" : outputs.map(\.description).joined(separator: "; ")
        let (w, h) = size
        switch (old.outputName, outputName) {
        case (let was?, nil):
            return "output \"\(was)\" is gone; the pointer covers the whole layout (\(w)x\(h)) until it is back (outputs: \(list))"
        case (nil, let now?):
            return "output \"\(now)\" is back; the pointer covers it again (\(self.description))"
        case (_?, _?):
            return "output \"\(outputName ?? "")\" changed; the pointer covers \(self.description)"
        default:
            return "the outputs changed; the pointer covers the whole layout, now \(w)x\(h) (outputs: \(list))"
        }
    }

    private var description: String {
        switch self {
        case .output(let o): o.description
        case .layout(let w, let h): "the whole layout \(w)x\(h)"
        }
    }
}
