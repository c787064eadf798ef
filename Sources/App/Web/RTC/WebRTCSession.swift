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
/// (reliable, in order) — into a session of the host's pipeline, through the same
/// `ExternalControllerHost` calls the WebSocket makes. Motion carries the button state the
/// control channel's edges built (a late motion frame cannot undo an edge), and a frame
/// older than the newest one is dropped as stale.
///
/// GStreamer's threads call `received`/`event`; every mutable field is in `state`.
final class WebRTCSession: Sendable {
    enum Channel: Sendable { case control, motion }
    enum Ending: Sendable { case closedByPage, timedOut, revoked, refused, replaced, shutdown, fingerprint }

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

    struct State {
        var peer: Peer?
        var token: UInt64 = 0
        var forget: (@Sendable () -> Void)?
        var session: SessionID?
        var opening = false
        var ended = false
        /// This device's one live session (`WebDeviceRegistry.claimSession`), while it is.
        var claim: UInt64?
        var lastHeard = NIODeadline.now()
        var clock = WebClockOffset()
        var clutch = PageClutch()
        var buttons = ButtonSet.none
        var lastSequence: UInt32?
        var lastAck = NIODeadline.uptimeNanoseconds(0)
    }

    let host: any ExternalControllerHost
    let registry: WebDeviceRegistry
    let stats: WebControllerStats
    let device: WebDevice
    let timeout: Duration
    /// Signalled but no hello on an open control channel by then: the peer is dropped.
    static let helloTimeout = Duration.seconds(10)
    static let watchInterval = Duration.milliseconds(100)
    static let maxMessage = 4096
    private let state = Mutex(State())
    /// The page's touchpad, typing and laser messages, handed to the host one after another
    /// by one task (in the order GStreamer delivered them; bounded like the channel's buffer).
    private let inputs: AsyncStream<(SessionID, WebInputMessage)>.Continuation

    init(host: any ExternalControllerHost, registry: WebDeviceRegistry, stats: WebControllerStats, device: WebDevice, timeout: Duration) {
        self.host = host; self.registry = registry; self.stats = stats; self.device = device; self.timeout = timeout
        let (stream, continuation) = AsyncStream.makeStream(of: (SessionID, WebInputMessage).self,
                                                            bufferingPolicy: .bufferingOldest(256))
        inputs = continuation
        Task { [host, weak self] in
            for await (session, message) in stream {
                if let reply = await host.input(session, message) { self?.send(reply.text) }
            }
        }
    }

    /// The answered peer is ours; the watchdog starts.
    func attach(_ peer: Peer, token: UInt64, forget: @escaping @Sendable () -> Void) {
        let late = state.withLock { s -> Bool in
            guard !s.ended else { return true }
            s.peer = peer; s.token = token; s.forget = forget; s.lastHeard = .now()
            return false
        }
        if late {
            // Ended (replaced, closed) while the answer was being made: the peer is ours to stop.
            forget()
            DispatchQueue.global().async { remotion_webrtc_close(peer.pointer) }
            return
        }
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
        let session: SessionID? = state.withLock { s in
            s.lastHeard = .now()
            return s.session
        }
        if isText {
            let text = String(decoding: bytes, as: UTF8.self)
            if channel == .control, let input = WebInputMessage.parse(text) {   // touchpad, typing, laser
                guard let session else { stats.drop(.beforeHello); return }
                self.input(input, session: session)
                return
            }
            guard channel == .control, let parsed = WebClientMessage.parse(text) else {
                stats.drop(.badText); return
            }
            control(parsed, session: session)
            return
        }
        guard let session else { stats.drop(.beforeHello); return }
        let frame: WebFrame
        do { frame = try WebFrame.decode(bytes) } catch { stats.drop(.badFrame(error)); return }
        switch frame {
        case .motion(let m):
            let hostNow = Date().timeIntervalSince1970 * 1000
            let verdict = state.withLock { s -> (MotionSample, Int64?)? in
                if let last = s.lastSequence, Int32(bitPattern: m.sequence &- last) <= 0 { return nil }
                s.lastSequence = m.sequence
                var sample = s.clutch.apply(m.sample, held: m.clutch)   // hold to aim
                sample.buttons = s.buttons
                return (sample, s.clock.latencyMicros(sampleMillis: m.timeMillis, hostNowMillis: hostNow))
            }
            guard let (sample, latency) = verdict else { stats.drop(.stale); return }
            host.motion(session, sample, latencyMicros: latency)
            stats.count(motion: 1)
            acknowledge(m.sequence)
        case let .button(button, isDown, _):
            guard channel == .control else { stats.drop(.buttonOnMotion); return }
            state.withLock { $0.buttons.set(button, down: isDown) }
            host.button(session, button, isDown: isDown)
        case let .ping(_, pageTime, rtt):
            host.heard(session)
            state.withLock { $0.clock.ping(pageTimeMillis: pageTime, rttMillis: rtt == 0 ? nil : Double(rtt) / 10,
                                          hostNowMillis: Date().timeIntervalSince1970 * 1000) }
            send(WebFrame.pong(echoing: bytes))
        }
    }

    private func control(_ message: WebClientMessage, session: SessionID?) {
        switch message {
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
        case .recenter:
            if let session { host.recenter(session) }
        case .mode(let wanted):
            guard let session else { return }
            Task {
                let now = await self.host.mode(session, set: wanted)
                self.send(WebHostMessage.mode(now).text)
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
        let address = (try? SocketAddress(ipAddress: "0.0.0.0", port: 0))!
        guard let id = await host.open(from: address, name: device.name) else {
            stats.count(refused: .full)
            send(WebHostMessage.refused(reason: "full", message: "every controller slot on \(host.name) is taken; try again when one leaves").text)
            end(.refused)
            return
        }
        let ended = state.withLock { s -> Bool in
            if !s.ended { s.session = id; s.lastHeard = .now() }
            return s.ended
        }
        if ended { host.close(id, reason: .clientDisconnected(.user)); return }
        host.setTyping(id, allowed: registry.mayType(device.id))
        stats.count(opened: 1)
        let mode = await host.mode(id, set: nil)
        send(WebHostMessage.welcome(host: host.name, session: id, mode: mode, timeout: timeout.secondsDouble, name: device.name).text)
        if let labels = await host.buttonLabels(id) { send(labels.text) }
    }

    /// A touchpad, typing or laser message, as the WebSocket hands it over (in order; a
    /// reply, such as characters that could not be typed, goes back on the control channel).
    private func input(_ message: WebInputMessage, session: SessionID) {
        if case .dropped = inputs.yield((session, message)) { stats.drop(.inputBacklog) }
    }

    // MARK: sending and ending

    func send(_ text: String) { send(Array(text.utf8), isText: true) }
    func send(_ bytes: [UInt8], isText: Bool = false, channel: Int32 = 0) {
        // Take the peer under the lock, call GStreamer outside it (its threads take this lock
        // in `received`); the reference keeps the C peer's memory alive meanwhile.
        guard let peer = state.withLock({ s in s.ended ? nil : s.peer }) else { return }
        _ = bytes.withUnsafeBufferPointer { remotion_webrtc_send(peer.pointer, channel, isText ? 1 : 0, $0.baseAddress, $0.count) }
    }

    /// MOTION-ACK (0x84, 8 bytes: [4..7] u32 the newest sequence) on "motion", at most every
    /// `ackInterval`. The page uses it to notice a stall and then sends only a probe frame
    /// now and then, so SCTP's window is not full of lost frames when the network returns
    /// and the next frame leaves at once instead of after a backed-off retransmission timer.
    static let ackInterval = TimeAmount.milliseconds(50)
    private func acknowledge(_ sequence: UInt32) {
        let now = NIODeadline.now()
        let due = state.withLock { s -> Bool in
            guard now - s.lastAck >= Self.ackInterval else { return false }
            s.lastAck = now
            return true
        }
        guard due else { return }
        send([0x84, 0, 0, 0, UInt8(sequence & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 24)],
             channel: 1)
    }

    /// Silence past the timeout, a revoked device, or no hello in time ends the session.
    private func watch() async {
        let started = NIODeadline.now()
        var typing = registry.mayType(device.id)
        while true {
            try? await Task.sleep(for: Self.watchInterval)
            let (ended, session, heard) = state.withLock { ($0.ended, $0.session, $0.lastHeard) }
            if ended { return }
            let now = NIODeadline.now()
            if session == nil, now - started > Self.amount(Self.helloTimeout) {
                end(.timedOut); return
            }
            if session != nil, now - heard > Self.amount(timeout) {
                send(WebHostMessage.closing(reason: "timeout", message: "nothing arrived from this phone for \(timeout); reconnecting").text)
                end(.timedOut); return
            }
            if !registry.isTrusted(device.id) {
                send(WebHostMessage.closing(reason: "revoked", message: "this phone was removed on the host; scan a new QR code to pair again").text)
                end(.revoked); return
            }
            let may = registry.mayType(device.id)
            if let session, may != typing { typing = may; host.setTyping(session, allowed: may) }
        }
    }

    static func amount(_ d: Duration) -> TimeAmount {
        .nanoseconds(d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000)
    }

    /// Ends once: releases what the session held, then stops the peer off this thread
    /// (closing joins GStreamer's threads, which may be the caller).
    func end(_ ending: Ending) {
        let taken = state.withLock { s -> (Peer?, SessionID?, (@Sendable () -> Void)?, UInt64?)? in
            guard !s.ended else { return nil }
            s.ended = true
            defer { s.peer = nil; s.session = nil; s.forget = nil; s.claim = nil }
            return (s.peer, s.session, s.forget, s.claim)
        }
        guard let (peer, session, forget, claim) = taken else { return }
        inputs.finish()
        if let claim { registry.releaseSession(device.id, token: claim) }
        if let session {
            let reason: SessionCloseReason = switch ending {
            case .closedByPage, .refused, .replaced, .fingerprint: .clientDisconnected(.user)
            case .timedOut: .timedOut
            case .revoked: .revoked
            case .shutdown: .hostShutdown
            }
            host.close(session, reason: reason)
            stats.count(ended: reason.description)
        }
        forget?()
        if let peer {
            // Let the closing/refused message leave before the transport stops.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                remotion_webrtc_close(peer.pointer)
            }
        }
    }
}
#endif
