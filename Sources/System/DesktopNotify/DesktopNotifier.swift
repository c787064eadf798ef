#if os(Linux)
import CDesktopNotify
import Glibc

/// Desktop notifications with actions through the session bus's
/// org.freedesktop.Notifications (GNOME Shell, KDE Plasma, dunst, mako…), via the C shim
/// `CDesktopNotify` (GDBus loaded at run time). `events` delivers what the person did:
/// an action chosen, a notification closed — taken only from the notification server's
/// unique name, which each event names — and every change of that server (a notification
/// id is one server's). Owned by one task: `show` and `dismiss` are called from it (the
/// shim's calls are synchronous and thread-safe); the callbacks arrive on the shim's own
/// thread and only yield into `events`, in the order the server's signals came.
package final class DesktopNotifier {
    package enum Event: Sendable, Equatable {
        case action(id: UInt32, key: String, server: String)
        /// 1 expired, 2 dismissed by the user, 3 closed by a call, 4 other.
        case closed(id: UInt32, reason: UInt32, server: String)
        /// org.freedesktop.Notifications has a new owner (its unique name; nil: none).
        case serverChanged(String?)
    }

    /// A notification on the screen: its id, and the server (unique name) that gave it.
    package struct Shown: Sendable, Equatable {
        package let id: UInt32
        package let server: String
    }

    package let events: AsyncStream<Event>
    private let handle: OpaquePointer
    private let sink: Unmanaged<Sink>

    /// What the C callbacks hold: the stream's continuation (Sendable).
    private final class Sink: Sendable {
        let continuation: AsyncStream<Event>.Continuation
        init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }
    }

    /// Why there are no notifications (no GIO, no session bus): one line, for the host to say.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    package init() throws(Unavailable) {
        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let sink = Unmanaged.passRetained(Sink(continuation))
        var why = [CChar](repeating: 0, count: 256)
        let onAction: rn_action_fn = { context, server, id, action in
            guard let context, let server, let action else { return }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().continuation
                .yield(.action(id: id, key: String(cString: action), server: String(cString: server)))
        }
        let onClosed: rn_closed_fn = { context, server, id, reason in
            guard let context, let server else { return }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().continuation
                .yield(.closed(id: id, reason: reason, server: String(cString: server)))
        }
        let onServer: rn_server_fn = { context, server in
            guard let context, let server else { return }
            let name = String(cString: server)
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().continuation
                .yield(.serverChanged(name.isEmpty ? nil : name))
        }
        guard let handle = rn_notifier_open(onAction, onClosed, onServer, sink.toOpaque(), &why, why.count) else {
            sink.release()
            throw Unavailable(description: text(why))
        }
        self.handle = handle
        self.sink = sink
        self.events = events
    }

    deinit {
        rn_notifier_free(handle)   // no callback runs after this returns
        sink.takeUnretainedValue().continuation.finish()
        sink.release()
    }

    /// Shows a notification with `actions` (key, label), staying until answered or dismissed.
    /// `body` is markup on servers with body-markup: escape what comes from outside. Its id
    /// and server; throws the server's refusal (or that none runs).
    package func show(app: String, summary: String, body: String, actions: [(key: String, label: String)]) throws(Unavailable) -> Shown {
        var why = [CChar](repeating: 0, count: 256)
        var server = [CChar](repeating: 0, count: 256)
        let strings = actions.flatMap { [$0.key, $0.label] }
        let id = withCStrings(strings) { pointers in
            rn_notifier_show(handle, app, summary, body, pointers, strings.count, 0, &server, server.count, &why, why.count)
        }
        guard id != 0 else { throw Unavailable(description: text(why)) }
        return Shown(id: id, server: text(server))
    }

    /// Closes notification `id` of `server` (answered elsewhere, or its request expired).
    package func dismiss(_ id: UInt32, server: String) { rn_notifier_dismiss(handle, server, id) }
}

/// A C buffer's text up to its NUL.
private func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `body` with the strings as a C array of C strings (valid only inside it).
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
#endif
