/// Why a window could not be opened or used. Each message says what is missing and what to do.
public enum WindowError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No display to open a window on: `DISPLAY` unset, the X server unreachable, or GLFW
    /// could not start (the message has GLFW's reason).
    case noDisplay(String)
    /// The display has no OpenGL 3.3 core context for windows (no GLX, and no EGL for X11).
    case noContext(String)
    /// The window was closed; it cannot render or be shown again.
    case closed
    /// The renderer failed to make or draw a frame (the message has its reason).
    case renderer(String)

    public var description: String {
        switch self {
        case .noDisplay(let s): return "no display for a window: \(s)"
        case .noContext(let s): return "no OpenGL context for a window: \(s)"
        case .closed: return "the window is closed"
        case .renderer(let s): return "window renderer: \(s)"
        }
    }
}
