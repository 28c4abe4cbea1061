/// Core Foundation's `CFData`. On Apple platforms `CFData` and `Data` are toll-free bridged,
/// so `data as CFData` is how Swift code hands bytes to `CGDataProvider(data:)`;
/// swift-corelibs-foundation has no public `CFData`, so here it *is* `Data` and that cast
/// compiles unchanged.
public typealias CFData = Data

/// A source of bytes for `CGImage`, as Apple's `CGDataProvider`, reduced to the in-memory
/// form: `init?(data:)` and `data`. (Apple's callback-based and URL-based providers are not
/// provided.) Immutable, so `Sendable`.
public final class CGDataProvider: Sendable {
    private let bytes: Data

    /// A provider over a copy of `data` (CGDataProviderCreateWithCFData). Apple's initializer
    /// is failable; this one never fails.
    public init?(data: CFData) {
        bytes = data
    }

    /// The provider's bytes (CGDataProviderCopyData).
    public var data: CFData? { bytes }
}
