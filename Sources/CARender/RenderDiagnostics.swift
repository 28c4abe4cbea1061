import Synchronization
import Foundation

/// Warnings from the render path: each distinct message is printed once per process to
/// standard error (a frame loop must not flood the log) and kept for tests.
public enum RenderDiagnostics {
    private static let seen = Mutex<[String]>([])

    public static func warn(_ message: String) {
        let first = seen.withLock { list -> Bool in
            if list.contains(message) { return false }
            list.append(message)
            return true
        }
        if first { FileHandle.standardError.write(Data("CARenderer warning: \(message)\n".utf8)) }
    }

    /// Every distinct warning so far, oldest first.
    public static var warnings: [String] { seen.withLock { $0 } }
}

