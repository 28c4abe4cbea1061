import CoreAnimation

/// Where UIKitCompat says what it does not reproduce. Every gap logs one warning naming the
/// API (through Core Animation's `Diagnostics.warnOnce`, so a gap hit every frame logs once
/// and tests can read `Diagnostics.recentWarnings`): "no silent gaps".
enum CompatDiagnostics {
    static func warnOnce(_ api: String, _ why: String) {
        Diagnostics.warnOnce("UIKitCompat: \(api) \(why)")
    }
}
