import RemotionHostLogic
import RemotionProtocol
import Testing

/// Which notifications ask about waiting phones: one per request, closed when the request
/// stops waiting (answered anywhere, expired), never shown again once dismissed; answered
/// only by the server that showed it, only once it has been up for the settle time.
@Suite struct ConsentNotificationsTests {
    static func phone(_ ref: String, _ name: String = "Phone") -> ConsentNotifications.Phone {
        .init(reference: ref, name: name, address: "192.0.2.7", code: String(ref.prefix(4)))
    }
    let a = Self.phone("1234-0000000a", "Ann's phone"), b = Self.phone("5678-0000000b", "Bob's phone")
    let server = ":1.7", t0 = Instant.seconds(100)
    var later: Instant { t0 + ConsentNotifications.settle }

    @Test func oneNotificationPerWaitingPhoneClosedWhenItNoLongerWaits() {
        var plan = ConsentNotifications()
        #expect(plan.update(waiting: [a]) == [.show(a)])
        plan.shown(a.reference, as: 7, server: server, now: t0)
        #expect(plan.update(waiting: [a]).isEmpty, "shown once")
        #expect(plan.update(waiting: [a, b]) == [.show(b)])
        plan.shown(b.reference, as: 8, server: server, now: t0)
        // a expired (or was answered in the dashboard): its notification goes; b stays.
        #expect(plan.update(waiting: [b]) == [.dismiss(7, server: server)])
        #expect(plan.update(waiting: []) == [.dismiss(8, server: server)])
        #expect(plan.shown.isEmpty)
    }

    @Test func anActionNamesItsRequestOnlyForOurNotificationsAndKnownKeys() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a, b])
        plan.shown(a.reference, as: 3, server: server, now: t0)
        plan.shown(b.reference, as: 4, server: server, now: t0)
        #expect(plan.action(id: 3, key: "accept", server: server, now: later) == .accept(reference: a.reference))
        #expect(plan.action(id: 4, key: "deny", server: server, now: later) == .deny(reference: b.reference))
        #expect(plan.action(id: 4, key: "default", server: server, now: later) == nil, "a click on the body answers nothing")
        #expect(plan.action(id: 99, key: "accept", server: server, now: later) == nil, "not ours")
    }

    @Test func onlyTheServerThatShowedANotificationAnswersIt() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a])
        plan.shown(a.reference, as: 3, server: server, now: t0)
        #expect(plan.action(id: 3, key: "accept", server: ":1.99", now: later) == nil, "another connection's signal")
        plan.closed(id: 3, server: ":1.99")
        #expect(plan.shown[a.reference]?.id == 3, "nor closes it")
        #expect(plan.action(id: 3, key: "accept", server: server, now: later) == .accept(reference: a.reference))
    }

    @Test func aNewServerForgetsEveryNotificationShowsThemAgainAndOldIdsAnswerNothing() {
        var plan = ConsentNotifications()
        plan.serverChanged(to: server)
        _ = plan.update(waiting: [a, b])
        plan.shown(a.reference, as: 5, server: server, now: t0)
        plan.shown(b.reference, as: 6, server: server, now: t0)
        // The server restarts: a new unique name, ids from 1 again.
        plan.serverChanged(to: ":1.42")
        #expect(plan.shown.isEmpty, "forgotten, not closed: the old ids mean nothing to the new server")
        #expect(plan.action(id: 5, key: "accept", server: ":1.42", now: later) == nil, "an old id from the new server")
        #expect(plan.action(id: 5, key: "accept", server: server, now: later) == nil, "an old id from the old server")
        #expect(plan.update(waiting: [a, b]) == [.show(a), .show(b)], "shown again on the new one")
        plan.shown(a.reference, as: 1, server: ":1.42", now: later)
        #expect(plan.action(id: 1, key: "deny", server: ":1.42", now: later + .seconds(1)) == .deny(reference: a.reference))
    }

    @Test func aNotificationShownOnTheNewServerBeforeItsChangeIsHeardIsKept() {
        var plan = ConsentNotifications()
        plan.serverChanged(to: server)
        _ = plan.update(waiting: [a])
        plan.shown(a.reference, as: 1, server: ":1.42", now: t0)   // the name moved before the event came
        plan.serverChanged(to: ":1.42")
        #expect(plan.update(waiting: [a]).isEmpty, "not shown twice")
        plan.serverChanged(to: nil)
        #expect(plan.shown.isEmpty, "no server: nothing is up")
    }

    @Test func anAnswerSoonerThanTheSettleIsNotTakenAndTheNotificationIsShownAgain() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a])
        plan.shown(a.reference, as: 3, server: server, now: t0)
        #expect(ConsentNotifications.settle == ConsentKeys.settle, "the terminal view's")
        let early = t0 + ConsentNotifications.settle - .milliseconds(1)
        #expect(plan.action(id: 3, key: "accept", server: server, now: early)
                == .tooSoon(reference: a.reference, dismiss: .dismiss(3, server: server)))
        #expect(plan.action(id: 3, key: "accept", server: server, now: later) == nil, "that notification is gone")
        plan.closed(id: 3, server: server)   // the server closes it after the action: not a dismissal
        #expect(plan.update(waiting: [a]) == [.show(a)], "shown again")
        plan.shown(a.reference, as: 4, server: server, now: later)
        #expect(plan.action(id: 4, key: "deny", server: server, now: later + .milliseconds(10)) != .deny(reference: a.reference),
                "its own settle again")
    }

    @Test func aDismissedOrRefusedNotificationIsNotShownAgainWhileItsPhoneWaits() {
        var plan = ConsentNotifications()
        _ = plan.update(waiting: [a, b])
        plan.shown(a.reference, as: 5, server: server, now: t0)
        plan.refused(b.reference)                  // the server refused it
        plan.closed(id: 5, server: server)         // the person dismissed it
        #expect(plan.update(waiting: [a, b]).isEmpty)
        // A new server tries the refused one again; the dismissed one stays dismissed.
        plan.serverChanged(to: ":1.42")
        #expect(plan.update(waiting: [a, b]) == [.show(b)])
        // Once they stop waiting they are forgotten: the same reference later is a new request.
        #expect(plan.update(waiting: []).isEmpty)
        #expect(plan.update(waiting: [a]) == [.show(a)])
    }

    @Test func theTextNamesThePhoneAndTheCode() {
        let text = ConsentNotifications.text(for: a)
        #expect(text.body.contains("Ann's phone") && text.body.contains("192.0.2.7") && text.body.contains("1234"))
    }

    @Test func everythingFromOutsideInTheBodyIsEscapedMarkup() {
        let hostile = Self.phone("1234-0000000c", #"<a href="https://x.invalid">pay</a> & co"#)
        let text = ConsentNotifications.text(for: hostile)
        #expect(text.body.contains(#"&lt;a href="https://x.invalid"&gt;pay&lt;/a&gt; &amp; co"#))
        #expect(!text.body.contains("<") && !text.body.contains(">"))
        #expect(!text.summary.contains("x.invalid") && !text.summary.contains(where: { "<>&".contains($0) }),
                "the summary is fixed text")
        var odd = ConsentNotifications.Phone(reference: "1", name: "<\u{301}b>\nline", address: "a&b", code: "<1>")
        odd.name += "&"
        let body = ConsentNotifications.text(for: odd).body
        #expect(!body.unicodeScalars.contains("<") && !body.unicodeScalars.contains(">") && !body.contains("\n"),
                "a combining mark does not hide a <; control characters go")
        #expect(body.contains("a&amp;b") && body.contains("&lt;1&gt;"), "the address and code too")
        #expect(ConsentNotifications.markupEscaped("&amp;") == "&amp;amp;", "an entity from outside stays text")
    }
}
