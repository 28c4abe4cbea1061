import NIOCore
import Synchronization

/// Tells when a request's client has gone away. Hummingbird lets the remote half-close a
/// connection (`allowRemoteHalfClosure`), so a client that disconnects leaves the channel
/// active with its input closed: this handler, put first in the connection's pipeline for the
/// duration of one request, records that event (and the channel going inactive) and passes
/// every event on unchanged.
final class ConnectionWatch: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let gone = Atomic(false)

    var clientGone: Bool { gone.load(ordering: .relaxed) }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed { gone.store(true, ordering: .relaxed) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone.store(true, ordering: .relaxed)
        context.fireChannelInactive()
    }
}
