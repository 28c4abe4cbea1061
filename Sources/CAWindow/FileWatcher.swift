import Foundation

/// Notices when a file changes by polling its modification date and size (cheap `stat` calls,
/// at most every `interval` seconds), which works on every file system, editors that replace
/// the file by renaming included. Extension beyond Apple's API.
package struct FileWatcher {
    package let url: URL
    package let interval: Double
    private var lastCheck = -Double.infinity
    private var signature: Signature?

    struct Signature: Equatable {
        var modified: Date?
        var size: Int?
        var exists: Bool
    }

    package init(url: URL, interval: Double = 0.25) {
        self.url = url
        self.interval = interval
        signature = Self.signature(of: url)
    }

    static func signature(of url: URL) -> Signature {
        guard let a = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            return Signature(modified: nil, size: nil, exists: false)
        }
        return Signature(modified: a[.modificationDate] as? Date, size: (a[.size] as? NSNumber)?.intValue, exists: true)
    }

    /// Whether the file changed since the last call that said so (checked at most every
    /// `interval` seconds of `now`). A file that disappears counts as a change once it is back
    /// (a save by rename passes through "missing").
    package mutating func changed(now: Double) -> Bool {
        guard now - lastCheck >= interval else { return false }
        lastCheck = now
        let s = Self.signature(of: url)
        guard s.exists else { return false }
        defer { signature = s }
        return s != signature
    }
}
