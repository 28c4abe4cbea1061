import Hummingbird
import NIOCore

/// Hummingbird's request context plus the request's connection, so a render can be stopped
/// when its client goes away (the connection is no longer active).
package struct ServiceRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    package let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
