import CoreAnimation

/// Where UIKitCompat says what it does not reproduce. Every gap logs one warning naming the
/// API (through Core Animation's `Diagnostics.warnOnce`, so a gap hit every frame logs once):
/// "no silent gaps".
package enum CompatDiagnostics {
    static let prefix = "UIKitCompat: "

    static func warnOnce(_ api: String, _ why: String) {
        Diagnostics.warnOnce("\(prefix)\(api) \(why)")
    }

    /// `Diagnostics.capture`, keeping UIKitCompat's own warnings: what a test's own code gave,
    /// whatever other suites log meanwhile.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let (result, all) = try Diagnostics.capture(body)
        return (result, all.filter { $0.hasPrefix(prefix) })
    }
}
