import NIOCore
import NIOWebSocket
import RemotionHostLogic
import RemotionProtocol

/// One phone's WebSocket on its connection's event loop (docs/WEB-CONTROLLER.md): every
/// frame is read, stepped and answered here, in the order it arrived.
///
/// - A MOTION / BUTTON / PING frame of an open session (or its motion lane) is stepped by
///   the session machine at once (`WebSessionDriver.received`: the host's calls are one
///   `execute` on the host's loop) and its ack or pong is written in the same pass; a read's
///   writes go out in one flush.
/// - A message that needs an answer from the host (the hello, a command, a touchpad or
///   typing message) is a *step*: until its answer is written, later frames wait here, in
///   order, and the socket reads nothing more (a page that floods fills its own TCP window).
/// - Backpressure: while the phone does not take what is written (the channel is not
///   writable), the socket reads nothing either, so its silence grows and the watchdog ends
///   it; a rumble or light change meanwhile waits, the newest replacing an older one.
/// - The end (page closed, watchdog, the server stopping) happens once: the session is
///   closed first (releasing what it held), then the goodbye and a close frame get
///   `WebControllerSocket.goodbyeDeadline` before the connection is cut.
final class WebControllerSocketHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Phase {
        case waitingForHello
        case session(WebSessionDriver, device: String, token: UInt64)
        case lane(WebControllerSocket.Lane)
        case ended(WebSessionEnding)
    }

    /// Frames held behind a step; past this the page is not a page (its reads are held, so
    /// only frames already decoded from one read can arrive) and the socket ends.
    static let maxWaiting = 1024

    private let socket: WebControllerSocket
    private let link: WebControllerSocket.Link
    private let remote: SocketAddress?
    private var phase = Phase.waitingForHello
    private var context: ChannelHandlerContext?
    private var waiting = CircularBuffer<WebSocketFrame>()
    private var stepping = false
    private var heldRead = false
    private var unflushed = false
    private var pendingFeedback: ControllerFeedback?
    private var pendingCalibration: CalibrationReport?
    private var pendingProfile: ProfileInForce?
    private var watchdog: RepeatedTask?

    init(socket: WebControllerSocket, channel: any Channel) {
        self.socket = socket
        self.remote = channel.remoteAddress
        link = WebControllerSocket.Link(
            authenticated: { WebConnectionGuard.authenticated(channel) },
            notices: { notice in Self.onLoop(of: channel) { $0.notice(notice) } })
    }

    /// Runs `body` with the channel's handler on its loop (nothing when it is gone).
    static func onLoop(of channel: any Channel, _ body: @escaping @Sendable (WebControllerSocketHandler) -> Void) {
        channel.eventLoop.execute {
            if let handler = try? channel.pipeline.syncOperations.handler(type: WebControllerSocketHandler.self) { body(handler) }
        }
    }

    /// The server is stopping: the session ends as `shutdown`.
    static func stop(_ channel: any Channel) { onLoop(of: channel) { $0.finish(.shutdown) } }

    // MARK: the channel's events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let me = NIOLoopBound(self, eventLoop: context.eventLoop)
        let socket = self.socket, link = self.link, every = TimeAmount(WebControllerSocket.watchInterval)
        watchdog = context.eventLoop.scheduleRepeatedTask(initialDelay: every, delay: every) { _ in
            if let ending = socket.check(link) { me.value.finish(ending) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(.closedByPage)
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.closedByPage)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.closedByPage)       // a protocol error (an oversized or malformed frame)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if case .ended = phase { return }
        switch frame.opcode {
        case .text, .binary:
            link.heard()
            if stepping {
                waiting.append(frame)
                if waiting.count > Self.maxWaiting { finish(.closedByPage) }
            } else {
                take(frame, context)
            }
        case .ping:
            send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData), context)
        case .connectionClose:
            finish(.closedByPage)
        default:
            break                   // a pong; fragments were joined by the aggregator
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if stepping || !context.channel.isWritable { heldRead = true } else { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            if let feedback = pendingFeedback { pendingFeedback = nil; notice(.feedback(feedback)) }
            if let report = pendingCalibration { pendingCalibration = nil; notice(.calibration(report)) }
            if let inForce = pendingProfile { pendingProfile = nil; notice(.profile(inForce)) }
            resumeReading(context)
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: messages

    private func take(_ frame: WebSocketFrame, _ context: ChannelHandlerContext) {
        let binary = frame.opcode == .binary
        switch phase {
        case .ended:
            return
        case .lane(let lane):
            guard binary else { return socket.stats.drop(.laneText) }
            write(lane.core.received(frame.unmaskedData.readableBytesView, on: .lane), context)
        case .session(let core, _, _):
            if binary { return write(core.received(frame.unmaskedData.readableBytesView, on: .primary), context) }
            sessionText(String(buffer: frame.unmaskedData), core)
        case .waitingForHello:
            guard !binary else { return socket.stats.drop(.beforeHello) }
            helloText(String(buffer: frame.unmaskedData), context)
        }
    }

    private func sessionText(_ text: String, _ core: WebSessionDriver) {
        if let input = WebInputMessage.parse(text) {     // touchpad, typing, laser
            stepping = true
            core.input(input, on: .primary) { [me = loopBound] reply in me.finishStep(texts: reply.map { [$0.text] } ?? []) }
            return
        }
        guard let parsed = WebClientMessage.parse(text) else { return socket.stats.drop(.badText) }
        switch parsed {
        case .hello, .lane:
            socket.stats.drop(.secondHello)
        case .recenter, .mode, .pad, .gyroStick, .calibrate:
            stepping = true
            core.command(parsed, on: .primary) { [me = loopBound] answer in me.finishStep(texts: answer.map { [$0.text] } ?? []) }
        }
    }

    private func helloText(_ text: String, _ context: ChannelHandlerContext) {
        if WebInputMessage.parse(text) != nil { return socket.stats.drop(.beforeHello) }
        guard let parsed = WebClientMessage.parse(text) else { return socket.stats.drop(.badText) }
        switch parsed {
        case let .hello(version, id, credential):
            stepping = true
            let socket = self.socket, link = self.link, remote = self.remote, me = loopBound
            Task {
                let opening = await socket.hello(version: version, id: id, credential: credential, remote: remote, link: link)
                me.opened(opening)
            }
        case let .lane(version, id, credential, session):
            let (text, lane) = socket.attachLane(version: version, id: id, credential: credential, session: session, link: link)
            send(text: text, context)
            if let lane { phase = .lane(lane) } else { finish(.refused) }
        case .recenter, .mode, .pad, .gyroStick, .calibrate:
            break                   // no session to act on
        }
    }

    // MARK: steps

    /// Hops back to the handler on its loop from a host callback or a task.
    private struct LoopBound: Sendable {
        let handler: NIOLoopBound<WebControllerSocketHandler>
        let loop: any EventLoop
        func finishStep(texts: [String]) { loop.execute { handler.value.stepped(texts: texts) } }
        func opened(_ opening: WebControllerSocket.Opening) { loop.execute { handler.value.opened(opening) } }
    }
    private var loopBound: LoopBound {
        LoopBound(handler: NIOLoopBound(self, eventLoop: context!.eventLoop), loop: context!.eventLoop)
    }

    private func opened(_ opening: WebControllerSocket.Opening) {
        switch opening.next {
        case let .session(driver, device, token):
            if case .ended(let ending) = phase {
                // The socket ended while the host opened the session: end that too.
                socket.end(link, ending)
                socket.registry.releaseSession(device, token: token)
                return
            }
            phase = .session(driver, device: device, token: token)
            stepped(texts: opening.texts)
        case .end(let ending):
            stepped(texts: opening.texts)
            finish(ending)
        }
    }

    /// A step's answer: written, then the frames that waited behind it are taken in order.
    private func stepped(texts: [String]) {
        guard let context else { return }
        stepping = false
        if case .ended = phase { return }
        for text in texts { send(text: text, context) }
        while !stepping, let frame = waiting.popFirst() { take(frame, context) }
        flushIfNeeded(context)
        if !stepping { resumeReading(context) }
    }

    // MARK: writing

    /// Rumble and light, a calibration's progress, for the page: written now, or when the
    /// phone takes writes again (then only the newest of each kind).
    private func notice(_ notice: ControllerNotice) {
        guard let context, !isEnded else { return }
        guard context.channel.isWritable else {
            switch notice {
            case .feedback(let f): pendingFeedback = f
            case .calibration(let c): pendingCalibration = c
            case .profile(let p): pendingProfile = p
            }
            return
        }
        send(text: WebHostMessage(notice).text, context)
        flushIfNeeded(context)
    }

    private func write(_ out: [WebSessionDriver.Outgoing], _ context: ChannelHandlerContext) {
        for item in out {
            switch item {
            case .binary(let bytes, _):
                send(WebSocketFrame(fin: true, opcode: .binary, data: context.channel.allocator.buffer(bytes: bytes)), context)
            case .text(let text, _):
                send(text: text, context)
            }
        }
    }

    private func send(text: String, _ context: ChannelHandlerContext) {
        send(WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text)), context)
    }

    private func send(_ frame: WebSocketFrame, _ context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(frame), promise: nil)
        unflushed = true
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        context.flush()
    }

    private func resumeReading(_ context: ChannelHandlerContext) {
        guard heldRead, !stepping, context.channel.isWritable else { return }
        heldRead = false
        context.read()
    }

    // MARK: the end

    private var isEnded: Bool { if case .ended = phase { true } else { false } }

    /// Ends the socket once: releases the session (or the lane), says goodbye when the host
    /// ended it, sends a close frame and cuts the connection once they are written or
    /// `goodbyeDeadline` passed.
    private func finish(_ ending: WebSessionEnding) {
        guard let context, !isEnded else { return }
        let lane: Bool
        switch phase {
        case .lane(let attached):
            lane = true
            socket.registry.releaseLane(attached.device, token: attached.token)
        case .session(_, let device, let token):
            lane = false
            socket.registry.releaseSession(device, token: token)
        case .waitingForHello, .ended:
            lane = false
        }
        let limit = link.limit(socket)
        phase = .ended(ending)
        watchdog?.cancel()
        waiting.removeAll()
        if lane { socket.stats.count(ended: "lane-\(ending)") }
        // Release before anything that could wait on the phone.
        socket.end(link, ending)
        let channel = context.channel
        guard channel.isActive else { return channel.close(promise: nil) }
        if let goodbye = ending.goodbye(limit: limit, lane: lane) { send(text: goodbye.text, context) }
        var reason = context.channel.allocator.buffer(capacity: 2)
        reason.write(webSocketErrorCode: .normalClosure)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason)), promise: written)
        unflushed = false
        let cut = context.eventLoop.scheduleTask(in: .init(WebControllerSocket.goodbyeDeadline)) { channel.close(promise: nil) }
        written.futureResult.whenComplete { _ in
            cut.cancel()
            channel.close(promise: nil)
        }
    }
}
