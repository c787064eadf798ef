import RemotionHostLogic
import Testing

/// Which notifications ask about waiting phones: one per request, closed when the request
/// stops waiting (answered anywhere, expired), never shown again once dismissed.
@Suite struct ConsentNotificationsTests {
    static func phone(_ ref: String, _ name: String = "Phone") -> ConsentNotifications.Phone {
        .init(reference: ref, name: name, address: "192.0.2.7", code: String(ref.prefix(4)))
    }
    let a = Self.phone("1234-0000000a", "Ann's phone"), b = Self.phone("5678-0000000b", "Bob's phone")

    @Test func oneNotificationPerWaitingPhoneClosedWhenItNoLongerWaits() {
        var plan = ConsentNotifications()
        #expect(plan.update(waiting: [a]) == [.show(a)])
        plan.shown(a.reference, as: 7)
        #expect(plan.update(waiting: [a]).isEmpty, "shown once")
        #expect(plan.update(waiting: [a, b]) == [.show(b)])
        plan.shown(b.reference, as: 8)
        // a expired (or was answered in the dashboard): its notification goes; b stays.
        #expect(plan.update(waiting: [b]) == [.dismiss(7)])
        #expect(plan.update(waiting: []) == [.dismiss(8)])
        #expect(plan.shown.isEmpty)
    }

    @Test func anActionNamesItsRequestOnlyForOurNotificationsAndKnownKeys() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a, b])
        plan.shown(a.reference, as: 3)
        plan.shown(b.reference, as: 4)
        #expect(plan.action(id: 3, key: "accept")! == (a.reference, true))
        #expect(plan.action(id: 4, key: "deny")! == (b.reference, false))
        #expect(plan.action(id: 4, key: "default") == nil, "a click on the body answers nothing")
        #expect(plan.action(id: 99, key: "accept") == nil, "not ours")
    }

    @Test func aDismissedOrRefusedNotificationIsNotShownAgainWhileItsPhoneWaits() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a, b])
        plan.shown(a.reference, as: 5)
        plan.shown(b.reference, as: nil)          // the server refused it
        plan.closed(id: 5)                         // the person dismissed it
        #expect(plan.update(waiting: [a, b]).isEmpty)
        // Once they stop waiting they are forgotten: the same reference later is a new request.
        #expect(plan.update(waiting: []).isEmpty)
        #expect(plan.update(waiting: [a]) == [.show(a)])
    }

    @Test func theTextNamesThePhoneAndTheCode() {
        let text = ConsentNotifications.text(for: a)
        #expect(text.body.contains("Ann's phone") && text.body.contains("192.0.2.7") && text.body.contains("1234"))
    }
}
