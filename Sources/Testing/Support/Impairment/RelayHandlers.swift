import NIOCore

/// Reads datagrams from clients on the listening socket and hands them to the core.
final class ClientSideHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let core: NIOLoopBound<RelayCore>

    init(core: NIOLoopBound<RelayCore>) { self.core = core }

    func handlerAdded(context: ChannelHandlerContext) {
        core.value.attachListener(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        core.value.fromClient(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // UDP errors (e.g. ICMP port unreachable) must not tear the relay down.
        core.value.socketError()
    }
}

/// Reads datagrams the upstream sends back to one client's upstream-facing socket.
final class UpstreamSideHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let core: NIOLoopBound<RelayCore>
    private let flow: Int

    init(core: NIOLoopBound<RelayCore>, flow: Int) {
        self.core = core
        self.flow = flow
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        core.value.fromUpstream(unwrapInboundIn(data), flow: flow)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        core.value.socketError()
    }
}
