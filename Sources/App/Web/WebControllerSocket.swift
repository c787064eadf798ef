import Foundation
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// One phone's WebSocket (docs/WEB-CONTROLLER.md): a hello with the device credential
/// within `helloTimeout`, then MOTION / BUTTON / PING frames into a session of the host's
/// pipeline. The session ends when the socket closes, when nothing arrives for
/// `timeout`, when the device is revoked, or when the host stops; every way releases
/// what the controller held (the state machine's closeExternal).
///
/// This type holds what the socket decides (the hello, a lane's attachment, the watchdog,
/// the ending); `WebControllerSocketHandler` moves its frames on the connection's loop.
///
/// A phone that stops reading must not keep a button pressed (docs/SECURITY.md §9): the
/// watchdog never writes; when it ends the socket the session is closed (released) first,
/// the goodbye gets `goodbyeDeadline`, and then the connection is closed without waiting
/// for anything. A socket whose writes back up reads nothing (the handler holds its reads),
/// so the watchdog's silence limit is also every write's deadline.
struct WebControllerSocket: Sendable {
    let host: HostControllers
    let registry: WebDeviceRegistry
    let stats: WebControllerStats
    var timeout: Duration = .milliseconds(2500)
    var helloTimeout: Duration = .seconds(5)
    /// How often the watchdog looks at the clock and the device list.
    static let watchInterval = Duration.milliseconds(100)
    /// How long the goodbye (why the socket ends) may take before the connection is cut.
    static let goodbyeDeadline = Duration.milliseconds(250)
    static let maxFrame = 4096

    /// What the socket's handler and its watchdog (both on the socket's loop) share with the
    /// hello's task and the host's feedback callback.
    final class Link: Sendable {
        let lastHeard = Atomic<Int64>(0)
        /// The device's typing permission as last told to the host (the watchdog follows changes).
        let typing = Atomic<Bool>(true)
        /// A newer session of the same device took over (`WebDeviceRegistry.claimSession`).
        let replaced = Atomic<Bool>(false)
        let session = Mutex<(driver: WebSessionDriver, device: String)?>(nil)
        /// The device whose session this socket is the motion lane of (docs/WEB-CONTROLLER.md).
        let lane = Mutex<String?>(nil)
        /// Tells the connection guard that this socket authenticated (no caps, no idle timeout).
        let authenticated: @Sendable () -> Void
        /// Rumble and light, a calibration's progress, for the page, from the host's loop to
        /// the socket's loop (where the newest of each not yet written replaces an older one).
        let notices: @Sendable (ControllerNotice) -> Void
        init(authenticated: @escaping @Sendable () -> Void = {},
             notices: @escaping @Sendable (ControllerNotice) -> Void = { _ in }) {
            self.authenticated = authenticated
            self.notices = notices
            heard()
        }
        func heard() { lastHeard.store(Int64(NIODeadline.now().uptimeNanoseconds), ordering: .relaxed) }
        func silence() -> Duration {
            .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds) - lastHeard.load(ordering: .relaxed))
        }
        /// The silence that ends this socket: the hello's until it has a session or a lane.
        func limit(_ socket: WebControllerSocket) -> Duration {
            session.withLock { $0 } == nil && lane.withLock { $0 } == nil ? socket.helloTimeout : socket.timeout
        }
    }

    typealias Ending = WebSessionEnding

    /// What a hello came to: the texts for the page, in order, and the socket's next state.
    struct Opening: Sendable {
        enum Next: Sendable {
            case session(WebSessionDriver, device: String, token: UInt64)
            case end(Ending)
        }
        var texts: [String]
        var next: Next
    }

    /// Closes the host's session (releasing what it held) once, with the ending's reason.
    func end(_ link: Link, _ ending: Ending) {
        guard let (driver, _) = link.session.withLock({ s in defer { s = nil }; return s }) else { return }
        driver.close(ending)
    }

    /// The watchdog's look, every `watchInterval` on the socket's loop: silence past the
    /// timeout, a revoked device or a newer session ends the socket (nil: it goes on). It
    /// never writes: a phone that does not read cannot hold it up.
    func check(_ link: Link) -> Ending? {
        let session = link.session.withLock { $0 }
        let lane = link.lane.withLock { $0 }
        // A lane's session ends on a revocation too: say why, not that it was replaced.
        if let lane, !registry.isTrusted(lane) { return .revoked }
        if link.replaced.load(ordering: .relaxed) { return .replaced }
        if link.silence() > link.limit(self) { return .timedOut }
        if let (driver, device) = session {
            guard registry.isTrusted(device) else { return .revoked }
            let may = registry.mayType(device)
            if link.typing.exchange(may, ordering: .relaxed) != may, let id = driver.session { host.send(.setTyping(allowed: may), for: id) }
        }
        return nil
    }

    /// A hello: verifies the device, claims its one live session (replacing an older one on
    /// either transport), opens the host's session and says welcome; or says why not.
    func hello(version: Int, id: String, credential: String, remote: SocketAddress?, link: Link) async -> Opening {
        guard version == 1, let device = registry.verify(id: id, credential: credential) else {
            return Opening(texts: [refusedUnknown()], next: .end(.refused))
        }
        let token = registry.claimSession(device.id) { link.replaced.store(true, ordering: .relaxed) }
        let opened = WebSessionDriver(host: host, stats: stats, transport: .webSocket, limit: timeout)
        guard let session = await host.open(from: .web(device: device.id, peer: remote), name: device.name,
                                            notices: link.notices) else {
            registry.releaseSession(device.id, token: token)
            stats.count(refused: .full)
            return Opening(texts: [WebHostMessage.refused(
                reason: "full", message: "every controller slot on \(host.name) is taken; try again when one leaves").text],
                           next: .end(.refused))
        }
        host.send(.setTyping(allowed: device.mayType), for: session)
        link.typing.store(device.mayType, ordering: .relaxed)
        _ = opened.opened(session)
        link.session.withLock { $0 = (opened, device.id) }
        link.authenticated()
        stats.count(opened: 1)
        // Lanes may attach from here on (the page opens one after the welcome).
        registry.sessionOpened(device.id, token: token, label: session.description, core: opened)
        let mode = await host.mode(session)
        var texts = [WebHostMessage.welcome(host: host.name, session: session, mode: mode,
                                            timeout: timeout.secondsDouble, name: device.name).text]
        if let labels = await host.buttonLabels(session) { texts.append(labels.text) }
        return Opening(texts: texts, next: .session(opened, device: device.id, token: token))
    }

    func refusedUnknown() -> String {
        stats.count(refused: .unknown)
        return WebHostMessage.refused(
            reason: "unknown", message: "this host does not know this phone (revoked or never paired); scan the host's QR code to pair").text
    }
}
