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
struct WebControllerSocket: Sendable {
    let host: any ExternalControllerHost
    let registry: WebDeviceRegistry
    let stats: WebControllerStats
    var timeout: Duration = .milliseconds(2500)
    var helloTimeout: Duration = .seconds(5)
    /// How often the watchdog looks at the clock and the device list.
    static let watchInterval = Duration.milliseconds(100)
    static let maxFrame = 4096

    /// Shared by the reader and the watchdog of one socket.
    final class Link: Sendable {
        let lastHeard = Atomic<Int64>(0)
        let session = Mutex<(id: SessionID, device: String)?>(nil)
        /// Tells the connection guard that this socket authenticated (no caps, no idle timeout).
        let authenticated: @Sendable () -> Void
        init(authenticated: @escaping @Sendable () -> Void = {}) { self.authenticated = authenticated; heard() }
        func heard() { lastHeard.store(Int64(NIODeadline.now().uptimeNanoseconds), ordering: .relaxed) }
        func silence() -> Duration {
            .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds) - lastHeard.load(ordering: .relaxed))
        }
    }

    enum Ending: Sendable { case closedByPage, timedOut, revoked, refused, shutdown }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, remote: SocketAddress?,
             authenticated: @escaping @Sendable () -> Void = {}) async {
        let link = Link(authenticated: authenticated)
        let ending: Ending = await withTaskGroup(of: Ending.self) { group in
            group.addTask { await self.read(inbound, outbound, remote: remote, link: link) }
            group.addTask { await self.watch(outbound, link: link) }
            let first = await group.next() ?? .shutdown
            group.cancelAll()
            return first
        }
        if let (id, _) = link.session.withLock({ $0 }) {
            let reason: SessionCloseReason = switch ending {
            case .closedByPage, .refused: .clientDisconnected(.user)
            case .timedOut: .timedOut
            case .revoked: .revoked
            case .shutdown: .hostShutdown
            }
            host.close(id, reason: reason)
            stats.count(ended: reason.description)
        }
        try? await outbound.close(.normalClosure, reason: nil)
    }

    /// The watchdog: silence past the timeout, a revoked device, or cancellation (the
    /// server is stopping) ends the socket.
    private func watch(_ outbound: WebSocketOutboundWriter, link: Link) async -> Ending {
        while true {
            do { try await Task.sleep(for: Self.watchInterval) } catch { return .shutdown }
            let session = link.session.withLock { $0 }
            let limit = session == nil ? helloTimeout : timeout
            if link.silence() > limit {
                try? await outbound.write(.text(WebHostMessage.closing(
                    reason: "timeout", message: "nothing arrived from this phone for \(limit); reconnecting").text))
                return .timedOut
            }
            if let (_, device) = session, !registry.isTrusted(device) {
                try? await outbound.write(.text(WebHostMessage.closing(
                    reason: "revoked", message: "this phone was removed on the host; scan a new QR code to pair again").text))
                return .revoked
            }
        }
    }

    private func read(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
                      remote: SocketAddress?, link: Link) async -> Ending {
        var clock = WebClockOffset()
        var session: SessionID?
        var intake: WebMotionIntake?      // newest wins between this socket and the host
        defer { intake?.close() }
        var clutch = PageClutch()
        do {
            for try await message in inbound.messages(maxSize: Self.maxFrame) {
                link.heard()
                switch message {
                case .text(let text):
                    if let input = WebInputMessage.parse(text) {   // touchpad, typing, laser
                        guard let session else { stats.drop("before-hello"); continue }
                        if let reply = await host.input(session, input) { try await outbound.write(.text(reply.text)) }
                        continue
                    }
                    guard let parsed = WebClientMessage.parse(text) else { stats.drop("bad-text"); continue }
                    switch parsed {
                    case let .hello(version, id, credential):
                        guard session == nil else { stats.drop("second-hello"); continue }
                        guard version == 1, let device = registry.verify(id: id, credential: credential) else {
                            stats.count(refused: "unknown")
                            try await outbound.write(.text(WebHostMessage.refused(
                                reason: "unknown", message: "this host does not know this phone (revoked or never paired); scan the host's QR code to pair").text))
                            return .refused
                        }
                        let address = remote ?? (try! SocketAddress(ipAddress: "0.0.0.0", port: 0))
                        guard let id = await host.open(from: address, name: device.name) else {
                            stats.count(refused: "full")
                            try await outbound.write(.text(WebHostMessage.refused(
                                reason: "full", message: "every controller slot on \(host.name) is taken; try again when one leaves").text))
                            return .refused
                        }
                        session = id
                        intake = WebMotionIntake(host: host, session: id, stats: stats)
                        link.session.withLock { $0 = (id, device.id) }
                        link.authenticated()
                        stats.count(opened: 1)
                        let mode = await host.mode(id, set: nil)
                        try await outbound.write(.text(WebHostMessage.welcome(
                            host: host.name, session: id, mode: mode, timeout: timeout.secondsDouble, name: device.name).text))
                        if let labels = await host.buttonLabels(id) { try await outbound.write(.text(labels.text)) }
                    case .recenter:
                        if let session { host.recenter(session) }
                    case .mode(let wanted):
                        if let session {
                            let now = await host.mode(session, set: wanted)
                            try await outbound.write(.text(WebHostMessage.mode(now).text))
                        }
                    }
                case .binary(let buffer):
                    guard session != nil else { stats.drop("before-hello"); continue }
                    let frame: WebFrame
                    do { frame = try WebFrame.decode(buffer.readableBytesView) } catch {
                        stats.drop(error.reason)
                        continue
                    }
                    switch frame {
                    case .motion(let m):
                        let hostNow = Date().timeIntervalSince1970 * 1000
                        let sample = clutch.apply(m.sample, held: m.clutch)   // hold to aim
                        intake?.motion(sequence: m.sequence, sample,
                                       latencyMicros: clock.latencyMicros(sampleMillis: m.timeMillis, hostNowMillis: hostNow))
                        stats.count(motion: 1)
                    case let .button(button, isDown, _):
                        intake?.button(button, isDown: isDown)
                    case let .ping(_, pageTime, rtt):
                        clock.ping(pageTimeMillis: pageTime, rttMillis: rtt == 0 ? nil : Double(rtt) / 10,
                                   hostNowMillis: Date().timeIntervalSince1970 * 1000)
                        try await outbound.write(.binary(ByteBuffer(bytes: WebFrame.pong(echoing: buffer.readableBytesView))))
                    }
                }
            }
        } catch {
            // A protocol error or a cancelled read: the socket is over either way.
        }
        return Task.isCancelled ? .shutdown : .closedByPage
    }
}
