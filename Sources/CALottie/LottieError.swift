import Foundation

/// Why a Lottie file could not be imported (an extension beyond Apple's API). Everything that
/// can be imported with a loss is not an error but a `LottieIssue`.
public enum LottieError: Error, Equatable, CustomStringConvertible {
    /// The bytes are not JSON: where the first syntax error is (1-based line and column).
    case malformedJSON(line: Int, column: Int, reason: String)
    /// Valid JSON that is not a Lottie animation (missing or wrong top-level fields).
    case notLottie(String)
    /// A precomposition that contains itself, directly or through others.
    case precompCycle(assetID: String)
    /// A documented limit (`LottieLimits`) was exceeded.
    case limitExceeded(String)
    /// A file that could not be read, or a dotLottie archive that is damaged.
    case unreadable(String)

    public var description: String {
        switch self {
        case let .malformedJSON(line, column, reason): return "malformed JSON at line \(line), column \(column): \(reason)"
        case let .notLottie(why): return "not a Lottie animation: \(why)"
        case let .precompCycle(id): return "precomposition \"\(id)\" contains itself (a cycle)"
        case let .limitExceeded(what): return "limit exceeded: \(what)"
        case let .unreadable(why): return "unreadable: \(why)"
        }
    }
}
