import Hummingbird
import NIOCore

/// The web controller's request context: Hummingbird's core context and the peer's address
/// (a pairing request shows the computer where the phone asks from).
struct WebRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
