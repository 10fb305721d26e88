import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's basic one, plus the peer's address (what the
/// live-reload streams count per client).
struct BlogRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
