import Hummingbird
import HTTPTypes

/// A request that ends without an image: the status and the text body (one or more lines) the
/// client receives. Built where the problem is found; `RenderServer` writes it.
package struct ServiceError: Error, Sendable, Equatable {
    package var status: HTTPResponse.Status
    package var message: String
    /// Seconds for a Retry-After header (503 only).
    package var retryAfter: Int?

    package init(_ status: HTTPResponse.Status, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    package static func badRequest(_ message: String) -> ServiceError { ServiceError(.badRequest, message) }
}
