import QuartzCore

/// Input and window events a `LayerWindow` delivers to user code, on the main thread, during
/// the frame loop's event poll. Locations are in points in the window layer's superlayer space
/// (origin top-left, y down: the space `CALayer.hitTest(_:)` takes for the window's layer), so
/// `window.layer?.hitTest(event.location)` finds the layer under the pointer and
/// `layer.convert(event.location, from: nil)` gives the point in any layer's own coordinates.
/// Extension beyond Apple's API (AppKit's NSEvent / UIKit's UITouch play this role there).
public enum WindowEvent: Sendable, Equatable {
    case mouseDown(MouseEvent)
    case mouseUp(MouseEvent)
    /// The pointer moved with a button held (the button that went down first).
    case mouseDragged(MouseEvent)
    /// The pointer moved with no button held.
    case mouseMoved(MouseEvent)
    /// A wheel or touchpad scroll by `delta` (lines; positive y scrolls up) at `location`.
    case scroll(delta: CGVector, location: CGPoint)
    case keyDown(KeyEvent)
    case keyUp(KeyEvent)
    /// Text typed (after the keyboard layout): use it for characters such as `+` that sit on
    /// different keys in different layouts.
    case text(Character)
    /// The window's size in points or its scale changed; the window layer already has the new
    /// bounds.
    case resized(size: CGSize, scale: CGFloat)
    /// The close button was pressed or Escape (with `closesOnEscape`); the window closes after
    /// this frame unless a handler calls `LayerWindow.cancelClose()`.
    case closeRequested
}

/// A mouse button event. Extension beyond Apple's API.
public struct MouseEvent: Sendable, Equatable {
    /// In points, in the window layer's superlayer space (see `WindowEvent`).
    public var location: CGPoint
    /// 0 primary (left), 1 secondary (right), 2 middle.
    public var button: Int
    public var modifiers: KeyModifiers

    public init(location: CGPoint, button: Int = 0, modifiers: KeyModifiers = []) {
        self.location = location
        self.button = button
        self.modifiers = modifiers
    }
}

/// A key event. `key` names the physical key (GLFW key codes: US layout names); `isRepeat`
/// marks auto-repeat presses. Extension beyond Apple's API.
public struct KeyEvent: Sendable, Equatable {
    public var key: Key
    public var modifiers: KeyModifiers
    public var isRepeat: Bool

    public init(key: Key, modifiers: KeyModifiers = [], isRepeat: Bool = false) {
        self.key = key
        self.modifiers = modifiers
        self.isRepeat = isRepeat
    }
}

/// A physical key, by its GLFW key code (the US-layout name of the key at that position).
public struct Key: Hashable, Sendable, CustomStringConvertible {
    public let code: Int32
    public init(code: Int32) { self.code = code }

    public static let space = Key(code: 32)
    public static let minus = Key(code: 45)
    public static let equal = Key(code: 61)
    public static let escape = Key(code: 256)
    public static let enter = Key(code: 257)
    public static let tab = Key(code: 258)
    public static let right = Key(code: 262)
    public static let left = Key(code: 263)
    public static let down = Key(code: 264)
    public static let up = Key(code: 265)
    public static let home = Key(code: 268)
    public static let keypadSubtract = Key(code: 333)
    public static let keypadAdd = Key(code: 334)
    /// A letter key, `A`…`Z` (GLFW codes 65…90); nil for anything else.
    public static func letter(_ c: Character) -> Key? {
        guard let a = c.uppercased().unicodeScalars.first, c.isLetter, a.value >= 65, a.value <= 90 else { return nil }
        return Key(code: Int32(a.value))
    }

    public var description: String {
        switch self {
        case .space: return "space"
        case .escape: return "escape"
        case .enter: return "enter"
        case .right: return "right"
        case .left: return "left"
        case .up: return "up"
        case .down: return "down"
        default:
            if code >= 32 && code < 127, let s = Unicode.Scalar(UInt32(code)) { return String(Character(s)) }
            return "key \(code)"
        }
    }
}

/// Modifier keys held during an event (GLFW's modifier bits).
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 0x1)
    public static let control = KeyModifiers(rawValue: 0x2)
    public static let alt = KeyModifiers(rawValue: 0x4)
    public static let `super` = KeyModifiers(rawValue: 0x8)
}
