import CoreAnimation

/// Warnings from the render path. They go through the model's `Diagnostics` (swift-log, each
/// distinct message once per process, so a frame loop does not flood the log), prefixed so
/// the render path's own can be told apart.
package enum RenderDiagnostics {
    static let prefix = "CARenderer: "

    package static func warn(_ message: String) {
        Diagnostics.warnOnce(prefix + message)
    }

    /// The latest warnings of the render path (repeats included), oldest first.
    package static var warnings: [String] {
        Diagnostics.recentWarnings.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }

    /// `Diagnostics.capture`, keeping the render path's warnings (without the prefix).
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let (result, all) = try Diagnostics.capture(body)
        return (result, all.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil })
    }
}
