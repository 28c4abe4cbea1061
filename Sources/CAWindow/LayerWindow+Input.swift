internal import CGLFW
import QuartzCore

/// Input: GLFW's callbacks queue `WindowEvent`s (delivered after the poll, in order), with
/// pointer positions converted from window coordinates to points.
extension LayerWindow {
    /// Pointer position (window coordinates) → points.
    func points(_ x: Double, _ y: Double) -> CGPoint {
        guard let h = handleBox.handle else { return .zero }
        let r = Self.windowToPixels(h) / contentsScale
        return CGPoint(x: CGFloat(x) * r, y: CGFloat(y) * r)
    }

    func pointerLocation() -> CGPoint {
        guard let h = handleBox.handle else { return .zero }
        var x = 0.0, y = 0.0
        glfwGetCursorPos(h, &x, &y)
        return points(x, y)
    }

    func mouseButton(_ button: Int32, action: Int32, mods: Int32, at location: CGPoint? = nil) {
        let e = MouseEvent(location: location ?? pointerLocation(), button: Int(button), modifiers: KeyModifiers(rawValue: mods & 0xF))
        if action == GLFW_PRESS {
            pressedButtons.append(Int(button))
            enqueue(.mouseDown(e))
        } else {
            pressedButtons.removeAll { $0 == Int(button) }
            enqueue(.mouseUp(e))
        }
    }

    func cursorMoved(_ x: Double, _ y: Double) {
        let p = points(x, y)
        if let b = pressedButtons.first {
            enqueue(.mouseDragged(MouseEvent(location: p, button: b)))
        } else {
            enqueue(.mouseMoved(MouseEvent(location: p)))
        }
    }

    func key(_ key: Int32, action: Int32, mods: Int32) {
        let e = KeyEvent(key: Key(code: key), modifiers: KeyModifiers(rawValue: mods & 0xF), isRepeat: action == GLFW_REPEAT)
        if action == GLFW_RELEASE {
            enqueue(.keyUp(e))
        } else {
            enqueue(.keyDown(e))
            if configuration.closesOnEscape, key == GLFW_KEY_ESCAPE, action == GLFW_PRESS, let h = handleBox.handle {
                glfwSetWindowShouldClose(h, GLFW_TRUE)
                enqueue(.closeRequested)
            }
        }
    }

    func requestClose() { enqueue(.closeRequested) }
    func framebufferResized() { resizePending = true }

    func installCallbacks(_ h: OpaquePointer) {
        glfwSetFramebufferSizeCallback(h) { w, _, _ in LayerWindow.with(w) { $0.framebufferResized() } }
        glfwSetWindowContentScaleCallback(h) { w, _, _ in LayerWindow.with(w) { $0.framebufferResized() } }
        glfwSetWindowCloseCallback(h) { w in LayerWindow.with(w) { $0.requestClose() } }
        glfwSetMouseButtonCallback(h) { w, b, a, m in LayerWindow.with(w) { $0.mouseButton(b, action: a, mods: m) } }
        glfwSetCursorPosCallback(h) { w, x, y in LayerWindow.with(w) { $0.cursorMoved(x, y) } }
        glfwSetScrollCallback(h) { w, dx, dy in
            LayerWindow.with(w) { $0.enqueue(.scroll(delta: CGVector(dx: dx, dy: dy), location: $0.pointerLocation())) }
        }
        glfwSetKeyCallback(h) { w, k, _, a, m in LayerWindow.with(w) { $0.key(k, action: a, mods: m) } }
        glfwSetCharCallback(h) { w, c in
            guard let s = Unicode.Scalar(c) else { return }
            LayerWindow.with(w) { $0.enqueue(.text(Character(s))) }
        }
    }

    /// The window behind a GLFW handle, in a GLFW callback (main thread, during polling).
    nonisolated static func with(_ handle: OpaquePointer?, _ body: @MainActor (LayerWindow) -> Void) {
        guard let handle, let p = glfwGetWindowUserPointer(handle) else { return }
        // Unmanaged: GLFW's user pointer (a void*, set in init); the C API, not a speed choice.
        let window = Unmanaged<LayerWindow>.fromOpaque(p).takeUnretainedValue()
        MainActor.assumeIsolated { body(window) }
    }
}

// MARK: Test hooks (package only): input as GLFW's callbacks would deliver it.
extension LayerWindow {
    package func simulateKey(_ key: Key, pressed: Bool, modifiers: KeyModifiers = []) {
        self.key(key.code, action: pressed ? GLFW_PRESS : GLFW_RELEASE, mods: modifiers.rawValue)
    }

    package func simulateCloseButton() {
        if let h = handle { glfwSetWindowShouldClose(h, GLFW_TRUE) }
        requestClose()
    }

    /// Moves the pointer (window coordinates, pixels on X11) and delivers the move.
    package func simulateCursor(atWindowPixel p: CGPoint) {
        cursorMoved(Double(p.x), Double(p.y))
    }

    package func simulateMouse(button: Int, pressed: Bool, atWindowPixel p: CGPoint) {
        mouseButton(Int32(button), action: pressed ? GLFW_PRESS : GLFW_RELEASE, mods: 0, at: points(Double(p.x), Double(p.y)))
    }
}
