/// Which desktop notifications ask the person at the computer about the phones waiting to
/// pair (docs/SECURITY.md §9), sans-IO: the waiting list, the notification server's events
/// and the ids it gave in; what to show, what to close and which request to answer out.
/// A notification closes when its request is answered anywhere (the dashboard, the
/// terminal view, `remotion devices`) or expires; one the person dismissed is not shown
/// again. What it keeps is bounded by the waiting list (the registry caps it).
package struct ConsentNotifications: Sendable {
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

    package enum Step: Sendable, Equatable {
        case show(Phone)
        case dismiss(UInt32)
    }

    /// The actions every notification offers (key, label).
    package static let actions: [(key: String, label: String)] = [("accept", "Accept"), ("deny", "Deny")]

    /// Open notifications: request → the server's id.
    package private(set) var shown: [String: UInt32] = [:]
    /// Requests whose notification the person closed (or the server refused): not again.
    private var dismissed: Set<String> = []

    package init() {}

    /// The phones waiting now: close the notifications of those that no longer wait, show one
    /// for each new one.
    package mutating func update(waiting: [Phone]) -> [Step] {
        let now = Set(waiting.map(\.reference))
        var steps: [Step] = []
        for (reference, id) in shown.sorted(by: { $0.value < $1.value }) where !now.contains(reference) {
            steps.append(.dismiss(id))
            shown[reference] = nil
        }
        dismissed.formIntersection(now)
        for phone in waiting where shown[phone.reference] == nil && !dismissed.contains(phone.reference) {
            steps.append(.show(phone))
        }
        return steps
    }

    /// The server showed `reference`'s notification as `id` (nil: it refused; not tried again).
    package mutating func shown(_ reference: String, as id: UInt32?) {
        if let id { shown[reference] = id } else { dismissed.insert(reference) }
    }

    /// The person chose `key` on notification `id`: the request to answer, and how; nil for
    /// a notification that is not ours or an unknown key. Its notification is closed at the
    /// next `update`, once the request no longer waits.
    package func action(id: UInt32, key: String) -> (reference: String, accept: Bool)? {
        guard key == "accept" || key == "deny", let reference = shown.first(where: { $0.value == id })?.key else { return nil }
        return (reference, key == "accept")
    }

    /// The server closed notification `id` (the person dismissed it, it expired there, or
    /// after an action): not shown again while its request waits.
    package mutating func closed(id: UInt32) {
        guard let reference = shown.first(where: { $0.value == id })?.key else { return }
        shown[reference] = nil
        dismissed.insert(reference)
    }

    /// The notification's words: who asks, and the code the phone shows.
    package static func text(for phone: Phone) -> (summary: String, body: String) {
        ("A phone asks to drive this computer",
         "“\(phone.name)” at \(phone.address). Accept only if the phone shows the code \(phone.code).")
    }
}
