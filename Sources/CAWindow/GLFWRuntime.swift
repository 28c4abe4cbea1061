internal import CGLFW
import Foundation

/// GLFW's process-wide state: initialised once, on the main thread, on first use, and never
/// terminated while the process runs (windows come and go; `glfwTerminate` would destroy the
/// windows of other code). GLFW reports errors through a callback; the last one is kept so
/// failures can say why.
enum GLFWRuntime {
    private static let lastErrorBox = Locked<(code: Int32, text: String)?>(nil)
    nonisolated(unsafe) private static var initialised = false

    /// The last GLFW error since `takeError()` (code and GLFW's text).
    static func takeError() -> (code: Int32, text: String)? {
        lastErrorBox.withLock { e in defer { e = nil }; return e }
    }

    static func describeLastError(_ fallback: String) -> String {
        guard let e = takeError() else { return fallback }
        return "\(e.text) (GLFW error 0x\(String(e.code, radix: 16)))"
    }

    /// Initialises GLFW (once). Throws `WindowError.noDisplay` with GLFW's reason and what to do
    /// when there is no display; a later call tries again (after `DISPLAY` was set, say).
    @MainActor
    static func initialize() throws {
        guard !initialised else { return }
        glfwSetErrorCallback { code, text in
            let message = text.map { String(cString: $0) } ?? "unknown GLFW error"
            GLFWRuntime.lastErrorBox.withLock { $0 = (code, message) }
        }
        _ = takeError()
        if ProcessInfo.processInfo.environment["DISPLAY"].map({ $0.isEmpty }) ?? true,
           ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil {
            throw WindowError.noDisplay("DISPLAY is not set (run on a desktop, or under Xvfb: xvfb-run -a COMMAND)")
        }
        guard glfwInit() == GLFW_TRUE else {
            throw WindowError.noDisplay(describeLastError("glfwInit failed") + "; run on a desktop, or under Xvfb: xvfb-run -a COMMAND")
        }
        initialised = true
    }

    /// Whether GLFW is up (a window can be made without initialising it).
    static var isInitialised: Bool { initialised }
}
