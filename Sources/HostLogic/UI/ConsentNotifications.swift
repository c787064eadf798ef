import RemotionProtocol

/// Which desktop notifications ask the person at the computer about the phones waiting to
/// pair (docs/SECURITY.md §9), sans-IO: the waiting list, the notification server's events
/// and the ids it gave in, the time a parameter; what to show, what to close and which
/// request to answer out. A notification closes when its request is answered anywhere (the
/// dashboard, the terminal view, `remotion devices`) or expires; one the person dismissed is
/// not shown again. An id is one server's (its unique name on the session bus): an event
/// names the server it came from and answers only that server's notification, and when the
/// server changes (restarted, replaced) every notification is forgotten and shown again on
/// the new one. An action answers only a notification up for `settle` (the terminal view's):
/// one that came sooner, a click meant for what was there before, is not taken and the
/// notification is shown again. What it keeps is bounded by the waiting list (the registry
/// caps it).
package struct ConsentNotifications: Sendable {
    /// How long a notification is up before its Accept or Deny is taken: the terminal view's.
    package static let settle = ConsentKeys.settle

    package struct Phone: Sendable, Equatable {
        /// `CODE-ID`, as every answer names the request.
        package var reference: String
        package var name: String
        package var address: String
        package var code: String

        package init(reference: String, name: String, address: String, code: String) {
            self.reference = reference
            self.name = name
            self.address = address
            self.code = code
        }
    }

    /// A notification on the screen: the server's id, the server (its unique name), since when.
    package struct Shown: Sendable, Equatable {
        package var id: UInt32
        package var server: String
        package var since: Instant
    }

    package enum Step: Sendable, Equatable {
        case show(Phone)
        /// Close notification `id` of `server`.
        case dismiss(UInt32, server: String)
    }

    /// What an action on one of our notifications does.
    package enum Answer: Sendable, Equatable {
        case accept(reference: String)
        case deny(reference: String)
        /// Sooner than `settle` after it showed: not taken. Its notification is forgotten:
        /// close it (`dismiss`), and the next `update` shows it again.
        case tooSoon(reference: String, dismiss: Step)
    }

    /// The actions every notification offers (key, label).
    package static let actions: [(key: String, label: String)] = [("accept", "Accept"), ("deny", "Deny")]

    /// Open notifications: request → where and since when it shows.
    package private(set) var shown: [String: Shown] = [:]
    /// Requests whose notification the person closed: not again while they wait.
    private var dismissed: Set<String> = []
    /// Requests the server refused to show: not again until another server runs.
    private var refused: Set<String> = []

    package init() {}

    /// The phones waiting now: close the notifications of those that no longer wait, show one
    /// for each new one.
    package mutating func update(waiting: [Phone]) -> [Step] {
        let now = Set(waiting.map(\.reference))
        var steps: [Step] = []
        for (reference, note) in shown.sorted(by: { $0.value.id < $1.value.id }) where !now.contains(reference) {
            steps.append(.dismiss(note.id, server: note.server))
            shown[reference] = nil
        }
        dismissed.formIntersection(now)
        refused.formIntersection(now)
        for phone in waiting where shown[phone.reference] == nil && !dismissed.contains(phone.reference)
            && !refused.contains(phone.reference) {
            steps.append(.show(phone))
        }
        return steps
    }

    /// The server `server` showed `reference`'s notification as `id` at `now`.
    package mutating func shown(_ reference: String, as id: UInt32, server: String, now: Instant) {
        shown[reference] = Shown(id: id, server: server, since: now)
    }

    /// The server refused `reference`'s notification (or none runs): not tried again until
    /// another server does.
    package mutating func refused(_ reference: String) { refused.insert(reference) }

    /// The person chose `key` on notification `id` of `server` at `now`: the request to
    /// answer and how; nil for a notification that is not ours (another server's id, one
    /// from before the server changed) or an unknown key. Its notification is closed at the
    /// next `update`, once the request no longer waits.
    package mutating func action(id: UInt32, key: String, server: String, now: Instant) -> Answer? {
        guard key == "accept" || key == "deny",
              let (reference, note) = shown.first(where: { $0.value.id == id && $0.value.server == server })
        else { return nil }
        guard now - note.since >= Self.settle else {
            shown[reference] = nil
            return .tooSoon(reference: reference, dismiss: .dismiss(id, server: server))
        }
        return key == "accept" ? .accept(reference: reference) : .deny(reference: reference)
    }

    /// The server closed notification `id` (the person dismissed it, it expired there, or
    /// after an action): not shown again while its request waits.
    package mutating func closed(id: UInt32, server: String) {
        guard let reference = shown.first(where: { $0.value.id == id && $0.value.server == server })?.key else { return }
        shown[reference] = nil
        dismissed.insert(reference)
    }

    /// org.freedesktop.Notifications is now `server` (nil: none runs). The notifications of
    /// any other server are forgotten, not closed (their ids mean nothing to the new one, and
    /// a server that went away took them along); the next `update` shows them on it. What
    /// the person dismissed stays dismissed.
    package mutating func serverChanged(to server: String?) {
        shown = shown.filter { $0.value.server == server }
        refused.removeAll()
    }

    /// The notification's words: who asks, and the code the phone shows. The summary is
    /// fixed text; the body is markup on servers with body-markup (KDE, dunst, mako), so
    /// everything from outside in it is sanitized and escaped.
    package static func text(for phone: Phone) -> (summary: String, body: String) {
        let name = markupEscaped(TextFormat.sanitize(phone.name))
        let address = markupEscaped(TextFormat.sanitize(phone.address))
        let code = markupEscaped(TextFormat.sanitize(phone.code))
        return ("A phone asks to drive this computer",
                "“\(name)” at \(address). Accept only if the phone shows the code \(code).")
    }

    /// `text` as the notification body's markup reads it: `&`, `<` and `>` as entities.
    /// Scalar by scalar: a combining mark after `<` makes one Character that is not "<".
    package static func markupEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
