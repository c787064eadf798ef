import Foundation
import HummingbirdWebSocket
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
/// A phone that stops reading must not keep a button pressed (docs/SECURITY.md §9): the
/// watchdog never writes; when it ends the socket the session is closed (released) first,
/// the goodbye gets `goodbyeDeadline`, and then the connection is closed without waiting
/// for anything (`abort`), which also fails a reply the read loop is stuck writing. A
/// read loop stuck in a write reads nothing, so the watchdog's silence limit is every
/// write's deadline.
struct WebControllerSocket: Sendable {
    let host: any ExternalControllerHost
    let registry: WebDeviceRegistry
    let stats: WebControllerStats
    var timeout: Duration = .milliseconds(2500)
    var helloTimeout: Duration = .seconds(5)
    /// How often the watchdog looks at the clock and the device list.
    static let watchInterval = Duration.milliseconds(100)
    /// How long the goodbye (why the socket ends) may take before the connection is cut.
    static let goodbyeDeadline = Duration.milliseconds(250)
    static let maxFrame = 4096

    /// Shared by the reader and the watchdog of one socket.
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
        /// Rumble and light for the page, from the host's loop to this socket's writer task
        /// (newest wins: a late one replaces what was not written yet).
        let feedback: AsyncStream<ControllerFeedback>.Continuation
        init(authenticated: @escaping @Sendable () -> Void = {},
             feedback: AsyncStream<ControllerFeedback>.Continuation) {
            self.authenticated = authenticated
            self.feedback = feedback
            heard()
        }
        func heard() { lastHeard.store(Int64(NIODeadline.now().uptimeNanoseconds), ordering: .relaxed) }
        func silence() -> Duration {
            .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds) - lastHeard.load(ordering: .relaxed))
        }
    }

    typealias Ending = WebSessionEnding

    /// `abort` closes the connection at once, failing any write still pending (the
    /// server passes its channel's close).
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, remote: SocketAddress?,
             authenticated: @escaping @Sendable () -> Void = {}, abort: @escaping @Sendable () -> Void = {}) async {
        let (feedback, pushFeedback) = AsyncStream<ControllerFeedback>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let link = Link(authenticated: authenticated, feedback: pushFeedback)
        defer { pushFeedback.finish() }
        await withTaskGroup(of: Ending.self) { group in
            group.addTask { await self.read(inbound, outbound, remote: remote, link: link) }
            group.addTask { await self.watch(link: link) }
            group.addTask {
                // Ends only with the group (cancelled): `next` below is the reader's or the watchdog's.
                for await f in feedback { try? await outbound.write(.text(WebHostMessage.feedback(f).text)) }
                return .shutdown
            }
            let ending = await group.next() ?? .shutdown
            let lane = link.lane.withLock { $0 } != nil
            let limit = link.session.withLock { $0 } == nil && !lane ? helloTimeout : timeout
            if lane { stats.count(ended: "lane-\(ending)") }
            // Release before anything that could wait on the phone.
            end(link, ending)
            if let goodbye = ending.goodbye(limit: limit, lane: lane) {
                await Self.within(Self.goodbyeDeadline) { try? await outbound.write(.text(goodbye.text)) }
            }
            // Cut the connection without a close handshake the phone may never read: a
            // write the read loop is stuck in fails, and the group's tasks end.
            abort()
            group.cancelAll()
        }
        await Self.within(Self.goodbyeDeadline) { try? await outbound.close(.normalClosure, reason: nil) }
    }

    /// Closes the host's session (releasing what it held) once, with the ending's reason.
    private func end(_ link: Link, _ ending: Ending) {
        guard let (driver, _) = link.session.withLock({ s in defer { s = nil }; return s }) else { return }
        driver.close(ending)
    }

    /// Runs `body` for at most `limit`; returns when it finished or the time is up (a body
    /// still waiting then is ended by the caller, e.g. by closing the connection).
    static func within(_ limit: Duration, _ body: @escaping @Sendable () async -> Void) async {
        let (done, signal) = AsyncStream<Void>.makeStream()
        let work = Task { await body(); signal.finish() }
        let timer = Task { try? await Task.sleep(for: limit); signal.finish() }
        for await _ in done {}
        timer.cancel()
        _ = work   // left to finish (or fail) when the connection is cut
    }

    /// The watchdog: silence past the timeout, a revoked device, or cancellation (the
    /// server is stopping) ends the socket. It never writes: a phone that does not read
    /// cannot hold it up.
    private func watch(link: Link) async -> Ending {
        while true {
            do { try await Task.sleep(for: Self.watchInterval) } catch { return .shutdown }
            let session = link.session.withLock { $0 }
            let lane = link.lane.withLock { $0 }
            // A lane's session ends on a revocation too: say why, not that it was replaced.
            if let lane, !registry.isTrusted(lane) { return .revoked }
            if link.replaced.load(ordering: .relaxed) { return .replaced }
            if link.silence() > (session == nil && lane == nil ? helloTimeout : timeout) { return .timedOut }
            if let (driver, device) = session {
                guard registry.isTrusted(device) else { return .revoked }
                let may = registry.mayType(device)
                if link.typing.exchange(may, ordering: .relaxed) != may, let id = driver.session { host.setTyping(id, allowed: may) }
            }
        }
    }

    private func read(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
                      remote: SocketAddress?, link: Link) async -> Ending {
        var core: WebSessionDriver?       // the session this primary socket opened (closed by `run`)
        var lane: Lane?                   // or: this socket is a motion lane of another's session
        var claim: (device: String, token: UInt64)?   // this device's one live session
        defer {
            if let claim { registry.releaseSession(claim.device, token: claim.token) }
            if let lane { registry.releaseLane(lane.device, token: lane.token) }
        }
        do {
            for try await message in inbound.messages(maxSize: Self.maxFrame) {
                link.heard()
                if let lane {
                    try await laneMessage(message, lane, outbound)
                    continue
                }
                switch message {
                case .text(let text):
                    if let input = WebInputMessage.parse(text) {   // touchpad, typing, laser
                        guard let core else { stats.drop(.beforeHello); continue }
                        if let reply = await core.input(input, on: .primary) { try await outbound.write(.text(reply.text)) }
                        continue
                    }
                    guard let parsed = WebClientMessage.parse(text) else { stats.drop(.badText); continue }
                    switch parsed {
                    case let .hello(version, id, credential):
                        guard core == nil else { stats.drop(.secondHello); continue }
                        guard version == 1, let device = registry.verify(id: id, credential: credential) else {
                            try await refuseUnknown(outbound)
                            return .refused
                        }
                        // One live session per device, on either transport: this one replaces the last.
                        let token = registry.claimSession(device.id) { link.replaced.store(true, ordering: .relaxed) }
                        claim = (device.id, token)
                        let opened = WebSessionDriver(host: host, stats: stats, transport: .webSocket, limit: timeout)
                        let feedback = link.feedback
                        guard let id = await host.open(from: .web(device: device.id, peer: remote), name: device.name,
                                                       feedback: { feedback.yield($0) }) else {
                            stats.count(refused: .full)
                            try await outbound.write(.text(WebHostMessage.refused(
                                reason: "full", message: "every controller slot on \(host.name) is taken; try again when one leaves").text))
                            return .refused
                        }
                        host.setTyping(id, allowed: device.mayType)
                        link.typing.store(device.mayType, ordering: .relaxed)
                        _ = opened.opened(id)
                        core = opened
                        link.session.withLock { $0 = (opened, device.id) }
                        link.authenticated()
                        stats.count(opened: 1)
                        // Lanes may attach from here on (the page opens one after the welcome).
                        registry.sessionOpened(device.id, token: token, label: id.description, core: opened)
                        let mode = await host.mode(id, set: nil)
                        try await outbound.write(.text(WebHostMessage.welcome(
                            host: host.name, session: id, mode: mode, timeout: timeout.secondsDouble, name: device.name).text))
                        if let labels = await host.buttonLabels(id) { try await outbound.write(.text(labels.text)) }
                    case let .lane(version, id, credential, session):
                        guard core == nil else { stats.drop(.secondHello); continue }
                        guard let attached = try await attachLane(version: version, id: id, credential: credential,
                                                                  session: session, link: link, outbound) else { return .refused }
                        lane = attached
                    case .recenter, .mode, .pad, .gyroStick:
                        if let answer = await core?.command(parsed, on: .primary) {
                            try await outbound.write(.text(answer.text))
                        }
                    }
                case .binary(let buffer):
                    guard let core else { stats.drop(.beforeHello); continue }
                    try await Self.write(core.received(buffer.readableBytesView, on: .primary), to: outbound)
                }
            }
        } catch {
            // A protocol error or a cancelled read: the socket is over either way.
        }
        return Task.isCancelled ? .shutdown : .closedByPage
    }

    /// What the session machine sends back (acks, pongs), in order, on this socket.
    static func write(_ out: [WebSessionDriver.Outgoing], to outbound: WebSocketOutboundWriter) async throws {
        for item in out {
            switch item {
            case .binary(let bytes, _): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
            case .text(let text, _): try await outbound.write(.text(text))
            }
        }
    }

    func refuseUnknown(_ outbound: WebSocketOutboundWriter) async throws {
        stats.count(refused: .unknown)
        try await outbound.write(.text(WebHostMessage.refused(
            reason: "unknown", message: "this host does not know this phone (revoked or never paired); scan the host's QR code to pair").text))
    }
}
