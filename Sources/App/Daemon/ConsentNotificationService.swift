#if os(Linux)
import Foundation
import Logging
import RemotionHostLogic
import RemotionNetwork
import RemotionSystem
import ServiceLifecycle

/// Asks the person at the computer about each phone waiting to pair with a desktop
/// notification (Accept / Deny), beside the dashboard and the terminal view, which answer
/// the same requests (whoever answers first wins). `ConsentNotifications` decides; this
/// polls the waiting list every 250 ms and carries the steps to `DesktopNotifier`, whose
/// events come from the notification server alone (its unique name). Without a session bus
/// (a server, a unit outside the graphical session) it says so once and waits.
struct ConsentNotificationService: Service {
    let devices: PairedDevices
    let logger: Logger
    let environment: [String: String]

    private enum Input: Sendable {
        case tick
        case event(DesktopNotifier.Event)
    }

    /// A session bus to ask, without letting GIO start one (its X11 autolaunch would leave
    /// a dbus-daemon behind): the address in the environment, or the user's runtime bus.
    static func sessionBus(in environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: runtime + "/bus")
    }

    func run() async throws {
        guard Self.sessionBus(in: environment) else {
            logger.info("desktop notifications off (no session bus): accept phones in the dashboard or the terminal view")
            try? await gracefulShutdown()
            return
        }
        let notifier: DesktopNotifier
        do { notifier = try DesktopNotifier() } catch {
            logger.info("desktop notifications off (\(error)): accept phones in the dashboard or the terminal view")
            try? await gracefulShutdown()
            return
        }
        logger.info("desktop notifications on: a phone that asks to pair is shown with Accept and Deny")
        let (inputs, input) = AsyncStream<Input>.makeStream(bufferingPolicy: .bufferingNewest(128))
        let events = notifier.events
        var plan = ConsentNotifications()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { for await e in events { input.yield(.event(e)) } }
                group.addTask {
                    while !Task.isCancelled {
                        input.yield(.tick)
                        try? await Task.sleep(for: .milliseconds(250))
                    }
                }
                for await next in inputs {
                    switch next {
                    case .tick: apply(plan.update(waiting: waiting()), to: &plan, notifier: notifier)
                    case let .event(.action(id, key, server)):
                        switch plan.action(id: id, key: key, server: server, now: MonotonicClock.now()) {
                        case nil: continue
                        case .accept(let reference)?:
                            said(devices.answer(reference: reference, accept: true), reference: reference)
                        case .deny(let reference)?:
                            said(devices.answer(reference: reference, accept: false), reference: reference)
                        case let .tooSoon(reference, dismiss)?:
                            logger.info("phone \(reference): a notification's answer came within a second of it showing; not taken, shown again: check the name and code")
                            apply([dismiss], to: &plan, notifier: notifier)
                        }
                        apply(plan.update(waiting: waiting()), to: &plan, notifier: notifier)
                    case let .event(.closed(id, _, server)): plan.closed(id: id, server: server)
                    case let .event(.serverChanged(server)):
                        plan.serverChanged(to: server)
                        apply(plan.update(waiting: waiting()), to: &plan, notifier: notifier)
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            input.finish()
        }
        // The host stops: nothing is left asking.
        for note in plan.shown.values { notifier.dismiss(note.id, server: note.server) }
    }

    private func waiting() -> [ConsentNotifications.Phone] {
        devices.waiting().map { .init(reference: $0.reference, name: $0.name, address: $0.address, code: $0.code) }
    }

    private func apply(_ steps: [ConsentNotifications.Step], to plan: inout ConsentNotifications, notifier: DesktopNotifier) {
        for step in steps {
            switch step {
            case let .dismiss(id, server): notifier.dismiss(id, server: server)
            case .show(let phone):
                let (summary, body) = ConsentNotifications.text(for: phone)
                do {
                    let note = try notifier.show(app: "Remotion", summary: summary, body: body,
                                                 actions: ConsentNotifications.actions)
                    plan.shown(phone.reference, as: note.id, server: note.server, now: MonotonicClock.now())
                } catch {
                    plan.refused(phone.reference)
                    logger.warning("desktop notification for phone '\(TextFormat.sanitize(phone.name))' not shown (\(error))")
                }
            }
        }
    }

    private func said(_ answer: PairedDevices.Answer, reference: String) {
        switch answer {
        case .answered(.accepted(let r)):
            logger.notice("accepted phone '\(TextFormat.sanitize(r.name))' at \(r.address) from the desktop notification: it pairs now")
        case .answered(.denied(let r)):
            logger.notice("refused phone '\(TextFormat.sanitize(r.name))' at \(r.address) from the desktop notification: nothing was stored")
        case .notWaiting, .malformed, .noWeb:
            logger.info("phone \(reference) no longer waits (answered elsewhere, or its time ran out)")
        }
    }
}
#endif
