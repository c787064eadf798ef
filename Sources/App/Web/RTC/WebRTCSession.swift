#if canImport(CWebRTCPeer)
import CWebRTCPeer
import Dispatch
import Foundation
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// One phone on data channels (docs/WEB-CONTROLLER.md, "Transports"): the same messages
/// as its WebSocket — a hello with the device credential on "control", then MOTION on
/// "motion" (unordered, never retransmitted) and BUTTON / PING / commands on "control"
/// (reliable, in order) — into a session of the host's pipeline through the same session
/// machine as the WebSocket (`WebSession`, run by `WebSessionDriver`): the control channel
/// owns the buttons, a frame older than the newest is stale, and page input reaches the
/// host in order with the control channel's buttons (no queue in between).
///
/// GStreamer's threads call `received`/`event`; every mutable field is in `state`, the
/// session's own in the driver's machine.
final class WebRTCSession: Sendable {
    typealias Channel = WebSession.Channel
    typealias Ending = WebSessionEnding

    /// The C peer, alive as long as this object: `deinit` frees it.
    final class Peer: @unchecked Sendable {
        // Proof: the shim's functions take the peer's own lock for everything they share with
        // GStreamer's threads (closed, the channels, dtls), so calls from any thread are safe
        // while the memory lives; it lives until this object's deinit (remotion_webrtc_release),
        // and every caller holds a reference while it calls. So a send never holds a lock of
        // ours while GStreamer runs (GStreamer's threads take ours in `received`), and a send
        // racing `close` finds the channels gone instead of freed memory.
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { remotion_webrtc_release(pointer) }
    }

    /// The answered peer, until the session machine stops the transport.
    final class PeerSlot: Sendable {
        let peer = Mutex<Peer?>(nil)
        /// Takes the peer out and closes it off the caller's thread (closing joins
        /// GStreamer's threads, which may be the caller).
        func stop() {
            guard let peer = peer.withLock({ p in defer { p = nil }; return p }) else { return }
            DispatchQueue.global().async { remotion_webrtc_close(peer.pointer) }
        }
    }

    struct State {
        var attached = false
        var token: UInt64 = 0
        var forget: (@Sendable () -> Void)?
        var opening = false
        var ended = false
        /// This device's one live session (`WebDeviceRegistry.claimSession`), while it is.
        var claim: UInt64?
        var lastHeard = NIODeadline.now()
    }

    let host: HostControllers
    let registry: WebDeviceRegistry
    let stats: WebControllerStats
    let device: WebDevice
    let timeout: Duration
    /// Signalled but no hello on an open control channel by then: the peer is dropped.
    static let helloTimeout = Duration.seconds(10)
    static let watchInterval = Duration.milliseconds(100)
    static let maxMessage = 4096
    private let state = Mutex(State())
    private let slot: PeerSlot
    /// The session machine: buttons, newest wins, clock, clutch, closing.
    private let driver: WebSessionDriver
    /// The host's answers (page input, modes) go back in order, off the host's loop.
    private let replies = DispatchQueue(label: "remotion.webrtc.replies")

    init(host: HostControllers, registry: WebDeviceRegistry, stats: WebControllerStats, device: WebDevice, timeout: Duration) {
        self.host = host; self.registry = registry; self.stats = stats; self.device = device; self.timeout = timeout
        let slot = PeerSlot()
        self.slot = slot
        driver = WebSessionDriver(host: host, stats: stats, transport: .dataChannels, limit: timeout, stop: { slot.stop() })
    }

    /// The answered peer is ours; the watchdog starts.
    func attach(_ peer: Peer, token: UInt64, forget: @escaping @Sendable () -> Void) {
        let late = state.withLock { s -> Bool in
            guard !s.ended else { return true }
            s.attached = true; s.token = token; s.forget = forget; s.lastHeard = .now()
            return false
        }
        if late {
            // Ended (replaced, closed) while the answer was being made: the peer is ours to stop.
            forget()
            DispatchQueue.global().async { remotion_webrtc_close(peer.pointer) }
            return
        }
        slot.peer.withLock { $0 = peer }
        Task { await self.watch() }
    }

    // MARK: from GStreamer's threads

    /// What the shim reports (remotion_webrtc.h's REMOTION_WEBRTC_EVENT_*), typed.
    enum Event: Int32, Sendable {
        case opened = 1, closed = 2, fingerprintMismatch = 3, unknownChannel = 4
    }

    func event(_ raw: Int32, channel: Int32) {
        guard let event = Event(rawValue: raw) else { stats.drop(.rtcUnknownEvent); return }
        switch event {
        case .opened: break
        case .closed: end(.closedByPage)                                                  // a channel or the connection closed
        case .fingerprintMismatch: stats.count(refused: .fingerprint); end(.fingerprint)  // DTLS peer ≠ signalled fingerprint
        case .unknownChannel: stats.drop(.rtcUnknownChannel)
        }
    }

    func received(channel: Channel, isText: Bool, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.maxMessage else { stats.drop(.tooLong); return }
        state.withLock { $0.lastHeard = .now() }
        guard isText else {
            send(driver.received(bytes, on: channel))
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let input = WebInputMessage.parse(text) {   // touchpad, typing, laser
            driver.input(input, on: channel) { [weak self] reply in
                guard let self, let reply else { return }
                replies.async { self.send(reply.text) }
            }
            return
        }
        guard channel == .control, let parsed = WebClientMessage.parse(text) else {
            stats.drop(.badText); return
        }
        switch parsed {
        case let .hello(version, id, credential):
            let first = state.withLock { s -> Bool in
                defer { s.opening = true }
                return !s.opening
            }
            guard first else { stats.drop(.secondHello); return }
            // The credential signalled the peer; the hello must be the same device's.
            guard version == 1, id == device.id, registry.verify(id: id, credential: credential) != nil else {
                stats.count(refused: .unknown)
                send(WebHostMessage.refused(reason: "unknown", message: "this host does not know this phone (revoked or never paired); scan the host's QR code to pair").text)
                end(.refused)
                return
            }
            Task { await self.open() }
        case .lane:
            stats.drop(.laneOnDataChannel)   // a motion lane is a WebSocket's
        case .recenter, .mode, .pad, .gyroStick, .calibrate:
            driver.command(parsed, on: channel) { [weak self] answer in
                guard let self, let answer else { return }
                replies.async { self.send(answer.text) }
            }
        }
    }

    private func open() async {
        // One live session per device, on either transport: this one replaces the last.
        let claim = registry.claimSession(device.id) { [weak self] in self?.end(.replaced) }
        let unclaimed = state.withLock { s -> Bool in
            if s.ended { return true }
            s.claim = claim
            return false
        }
        if unclaimed { registry.releaseSession(device.id, token: claim); return }
        // The page's address is not known here (ICE chose the path inside GStreamer).
        let notices: @Sendable (ControllerNotice) -> Void = { [weak self] notice in
            guard let self else { return }
            self.replies.async { self.send(WebHostMessage(notice).text) }
        }
        guard let id = await host.open(from: .web(device: device.id, peer: nil), name: device.name, notices: notices) else {
            stats.count(refused: .full)
            send(WebHostMessage.refused(reason: "full", message: "every controller slot on \(host.name) is taken; try again when one leaves").text)
            end(.refused)
            return
        }
        // Its typing permission first: once the machine has the session, the page's text goes
        // to the host, and the host's commands keep their order (it types nothing before this).
        host.send(.setTyping(allowed: registry.mayType(device.id)), for: id)
        // Ended meanwhile: the machine is closed and never saw this session.
        guard driver.opened(id) else { host.send(.close(.clientDisconnected(.user)), for: id); return }
        state.withLock { $0.lastHeard = .now() }
        stats.count(opened: 1)
        let mode = await host.mode(id)
        send(WebHostMessage.welcome(host: host.name, session: id, mode: mode, timeout: timeout.secondsDouble, name: device.name).text)
        if let labels = await host.buttonLabels(id) { send(labels.text) }
    }

    // MARK: sending and ending

    func send(_ text: String) { send([.text(text, on: .control)]) }

    /// What the session machine (or this adapter) sends: "control" is channel 0, "motion" 1.
    func send(_ out: [WebSessionDriver.Outgoing]) {
        guard !out.isEmpty else { return }
        // Take the peer under the lock, call GStreamer outside it (its threads take this lock
        // in `received`); the reference keeps the C peer's memory alive meanwhile.
        guard let peer = slot.peer.withLock({ $0 }) else { return }
        for item in out {
            let (bytes, isText, channel): ([UInt8], Bool, Channel) = switch item {
            case let .binary(bytes, channel): (bytes, false, channel)
            case let .text(text, channel): (Array(text.utf8), true, channel)
            }
            _ = bytes.withUnsafeBufferPointer {
                remotion_webrtc_send(peer.pointer, channel == .motion ? 1 : 0, isText ? 1 : 0, $0.baseAddress, $0.count)
            }
        }
    }

    /// Silence past the timeout, a revoked device, or no hello in time ends the session.
    private func watch() async {
        let started = NIODeadline.now()
        var typing = registry.mayType(device.id)
        while true {
            try? await Task.sleep(for: Self.watchInterval)
            let (ended, heard) = state.withLock { ($0.ended, $0.lastHeard) }
            if ended { return }
            let session = driver.session
            let now = NIODeadline.now()
            if session == nil, now - started > Self.amount(Self.helloTimeout) {
                end(.timedOut); return
            }
            if session != nil, now - heard > Self.amount(timeout) {
                end(.timedOut); return       // the machine says goodbye ("timeout")
            }
            if !registry.isTrusted(device.id) {
                end(.revoked); return        // the machine says goodbye ("revoked")
            }
            let may = registry.mayType(device.id)
            if let session, may != typing { typing = may; host.send(.setTyping(allowed: may), for: session) }
        }
    }

    static func amount(_ d: Duration) -> TimeAmount {
        .nanoseconds(d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000)
    }

    /// Ends once: the session machine releases what the page held, closes the host's
    /// session, sends the goodbye, and stops the peer once it had its time (an event of
    /// the machine, `WebSession.linger`; at once when the page closed).
    func end(_ ending: Ending) {
        let taken = state.withLock { s -> ((@Sendable () -> Void)?, UInt64?)? in
            guard !s.ended else { return nil }
            s.ended = true
            defer { s.forget = nil; s.claim = nil }
            return (s.forget, s.claim)
        }
        guard let (forget, claim) = taken else { return }
        if let claim { registry.releaseSession(device.id, token: claim) }
        send(driver.close(ending))
        forget?()
    }
}
#endif
