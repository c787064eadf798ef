import RemotionProtocol

/// Writes one JSON object per injected event, one per line, to a sink:
///
///     {"session":"0000002a","kind":"move_to","x":10,"y":20}
///     {"session":"0000002a","kind":"move_by","dx":-3,"dy":4}
///     {"session":"0000002a","kind":"button","button":"left","state":"down"}
///     {"session":"0000002a","kind":"key","key":"Left","state":"up"}
///     {"session":"0000002a","kind":"wheel","dx":0,"dy":1}
///
/// Used by `--inject log` (no OS access at all) and in tests. `sink` gets each line as
/// it is posted; `flush` runs at the end of every injected frame, so an adapter that
/// collects lines writes them then (one write per frame, never held back).
package final class LogBackend: InjectorBackend {
    package let name = "log"
    private let sink: (String) -> Void
    private let flushSink: () -> Void
    private let screen: ScreenGeometry

    package init(screen: ScreenGeometry = ScreenGeometry(width: 1920, height: 1080),
                sink: @escaping (String) -> Void, flush: @escaping () -> Void = {}) {
        self.screen = screen
        self.sink = sink
        self.flushSink = flush
    }

    package func screenGeometry() -> ScreenGeometry { screen }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        sink(Self.line(for: event, session: session))
    }

    package func flush() throws(InjectionError) { flushSink() }
    package func close() {}

    /// The JSON line for one event (fields in a fixed order). With `screen`, a `move_to`
    /// line also carries the screen the position is on (`"width"`, `"height"`), so a reader
    /// knows the intended screen fraction (`REMOTION_ECHO_INJECTED`).
    package static func line(for event: InputEvent, session: SessionID, screen: ScreenGeometry? = nil) -> String {
        var fields: [(String, String)] = [("session", quote(session.description))]
        switch event {
        case .moveTo(let x, let y):
            fields += [("kind", quote("move_to")), ("x", "\(x)"), ("y", "\(y)")]
            if let screen { fields += [("width", "\(screen.width)"), ("height", "\(screen.height)")] }
        case .moveBy(let dx, let dy):
            fields += [("kind", quote("move_by")), ("dx", "\(dx)"), ("dy", "\(dy)")]
        case .button(let b, let down):
            fields += [("kind", quote("button")), ("button", quote(b.description)), ("state", quote(down ? "down" : "up"))]
        case .key(let k, let down):
            fields += [("kind", quote("key")), ("key", quote(k.name)), ("state", quote(down ? "down" : "up"))]
        case .wheel(let dx, let dy):
            fields += [("kind", quote("wheel")), ("dx", "\(dx)"), ("dy", "\(dy)")]
        }
        return "{" + fields.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quote(_ s: String) -> String { JSONText.quote(s) }
}
