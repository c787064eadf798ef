import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import NIOTLS
import Synchronization

/// Keeps one neighbour from taking the web controller's HTTPS port (docs/SECURITY.md §9,
/// "A neighbour floods the port"): a connection must finish its TLS handshake within
/// `handshakeTimeout`; until it authenticates (a WebSocket whose hello carried a paired
/// device's credential) it is closed after `idleTimeout` without a byte; one address may
/// hold at most `perAddress` unauthenticated connections (one more is closed at once) and
/// the server `total` (a new one then evicts the oldest); both counted. Authenticated
/// sockets are never capped or timed out here (their own watchdog ends them).
package final class WebConnectionGuard: Sendable {
    package struct Limits: Sendable {
        package var handshakeTimeout: TimeAmount = .seconds(5)
        package var idleTimeout: TimeAmount = .seconds(10)
        /// From the handshake, the most an unauthenticated connection may live, however
        /// often it sends a byte (a page load and a pairing's polls need seconds; a neighbour
        /// who sends junk every few seconds is cut here, not kept by the idle timer).
        package var authenticateTimeout: TimeAmount = .seconds(20)
        package var perAddress = 16
        package var total = 512
        package init() {}

        /// The total cap for a process that may open `openFileLimit` descriptors: half of
        /// them, between 64 and 4096 (~30 KiB of memory each while held).
        package static func total(openFileLimit: UInt64) -> Int {
            Int(Swift.max(64, Swift.min(4096, openFileLimit / 2)))
        }
    }

    package let limits: Limits
    private let stats: WebControllerStats

    /// The unauthenticated connections: per peer address (without the port), and each
    /// with its channel and the order it came in (the oldest is evicted when all are taken).
    private struct Open {
        var byAddress: [String: Int] = [:]
        var connections: [ObjectIdentifier: (channel: any Channel, address: String, order: UInt64)] = [:]
        var next: UInt64 = 0
    }
    private let open = Mutex(Open())

    package init(limits: Limits = Limits(), stats: WebControllerStats) {
        self.limits = limits
        self.stats = stats
    }

    /// Unauthenticated connections held now (for tests and the stats).
    package var unauthenticated: Int { open.withLock { $0.connections.count } }

    /// Who a peer counts as for the per-address cap: its IPv4 address, or its IPv6 /64 (one
    /// host hands itself any number of addresses from its /64, so counting each would lift the cap).
    package static func addressKey(_ text: String) -> String {
        guard let bytes = IPAddressBytes.parse(text) else { return text }
        guard bytes.count == 16 else { return IPAddressBytes.format(bytes) }
        if bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] { return IPAddressBytes.format(bytes.suffix(4)) }
        return IPAddressBytes.format(Array(bytes.prefix(8)) + Array(repeating: 0, count: 8)) + "/64"
    }

    /// Takes a slot for `channel`: false (counted) when its address holds `perAddress`
    /// already. When all `total` slots are taken the oldest unauthenticated connection is
    /// closed to make room (counted `evicted`), so a flood from many addresses churns
    /// itself instead of locking a new phone out.
    package func admit(_ channel: any Channel, from address: String) -> Bool {
        let (admitted, evicted) = open.withLock { o -> (Bool, (any Channel)?) in
            guard o.byAddress[address, default: 0] < limits.perAddress else { return (false, nil) }
            var evicted: (any Channel)?
            if o.connections.count >= limits.total, let oldest = o.connections.min(by: { $0.value.order < $1.value.order }) {
                evicted = oldest.value.channel
                Self.remove(oldest.key, from: &o)
            }
            o.connections[ObjectIdentifier(channel)] = (channel, address, o.next)
            o.next += 1
            o.byAddress[address, default: 0] += 1
            return (true, evicted)
        }
        if !admitted { stats.count(connection: .perAddressCap) }
        if let evicted {
            stats.count(connection: .evicted)
            evicted.close(promise: nil)
        }
        return admitted
    }

    /// Gives `channel`'s slot back (closed, timed out or authenticated); once only.
    fileprivate func release(_ channel: any Channel) {
        open.withLock { Self.remove(ObjectIdentifier(channel), from: &$0) }
    }

    private static func remove(_ id: ObjectIdentifier, from o: inout Open) {
        guard let gone = o.connections.removeValue(forKey: id) else { return }
        let left = o.byAddress[gone.address, default: 1] - 1
        o.byAddress[gone.address] = left > 0 ? left : nil
    }

    fileprivate func closed(_ reason: WebControllerStats.ConnectionEnd) { stats.count(connection: reason) }

    /// Marks `channel`'s connection authenticated (its WebSocket hello was accepted).
    package static func authenticated(_ channel: any Channel) {
        channel.eventLoop.execute {
            (try? channel.pipeline.syncOperations.handler(type: Handler.self))?.authenticate()
        }
    }

    /// Sits right after the TLS handler of each connection; lives on its event loop.
    package final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        package typealias InboundIn = NIOAny
        private let owner: WebConnectionGuard
        /// Holds a slot: admitted and not yet released (authenticated, closed, timed out).
        private var holding: Bool
        private var handshaken = false
        private var lastRead = NIODeadline.uptimeNanoseconds(0)
        /// When an unauthenticated connection must have authenticated by (set at the handshake).
        private var mustAuthenticateBy: NIODeadline?
        private var timer: Scheduled<Void>?
        private weak var context: ChannelHandlerContext?

        /// Over a cap: closed as soon as it can be.
        private let refused: Bool

        /// `admitted` false: the connection is over the per-address cap and is closed at once.
        package init(owner: WebConnectionGuard, admitted: Bool) {
            self.owner = owner
            holding = admitted
            refused = !admitted
        }

        package func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
            if refused {
                if context.channel.isActive { context.close(promise: nil) }
                return
            }
            arm(context, in: owner.limits.handshakeTimeout)
        }

        package func channelActive(context: ChannelHandlerContext) {
            if refused { context.close(promise: nil) } else { context.fireChannelActive() }
        }

        package func handlerRemoved(context: ChannelHandlerContext) { settle() }

        package func channelInactive(context: ChannelHandlerContext) {
            settle()
            context.fireChannelInactive()
        }

        package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            lastRead = context.eventLoop.now
            context.fireChannelRead(data)
        }

        package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls, holding {
                handshaken = true
                lastRead = context.eventLoop.now
                mustAuthenticateBy = context.eventLoop.now + owner.limits.authenticateTimeout
                arm(context, in: min(owner.limits.idleTimeout, owner.limits.authenticateTimeout))
            }
            context.fireUserInboundEventTriggered(event)
        }

        /// The connection authenticated: no caps and no timers from here on.
        func authenticate() { settle() }

        private func settle() {
            timer?.cancel()
            timer = nil
            if holding, let channel = context?.channel { owner.release(channel) }
            holding = false
        }

        private func arm(_ context: ChannelHandlerContext, in delay: TimeAmount) {
            timer?.cancel()
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [weak self] in self?.fire() }
        }

        private func fire() {
            guard let context, holding else { return }
            if !handshaken {
                owner.closed(.handshakeTimeout)
                settle()
                context.close(promise: nil)
                return
            }
            // The loop's clock (virtual on an EmbeddedEventLoop: the tests advance it).
            let now = context.eventLoop.now
            if let by = mustAuthenticateBy, now >= by {
                owner.closed(.authenticateTimeout)
                settle()
                context.close(promise: nil)
                return
            }
            let idle = now - lastRead
            if idle >= owner.limits.idleTimeout {
                owner.closed(.idleTimeout)
                settle()
                context.close(promise: nil)
            } else {
                let untilIdle = owner.limits.idleTimeout - idle
                arm(context, in: mustAuthenticateBy.map { min(untilIdle, $0 - now) } ?? untilIdle)
            }
        }
    }
}

/// A server child channel with the guard's handler right after TLS (Hummingbird's
/// `TLSChannel` wraps the HTTP and WebSocket channel; this wraps that).
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let owner: WebConnectionGuard

    /// Every connection gets the handler; one over a cap gets it without a slot and is
    /// closed as soon as it is active (failing the setup instead would reach the server
    /// channel as an error and end Hummingbird's accept loop).
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = owner.admit(channel, from: WebConnectionGuard.addressKey(channel.remoteAddress?.ipAddress ?? "unknown"))
        return base.setup(channel: channel, logger: logger).flatMapThrowing { [owner] value in
            let tls = try channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            try channel.pipeline.syncOperations.addHandler(WebConnectionGuard.Handler(owner: owner, admitted: admitted),
                                                           position: .after(tls))
            return value
        }.flatMapErrorThrowing { [owner] error in
            if admitted { owner.release(channel) }     // the handler was not added (adding it is the last step)
            throw error
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension GuardedChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    var responder: HTTPChannelHandler.Responder { base.responder }
}
