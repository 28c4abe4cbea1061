internal import CEGL

extension EGLHeadlessContext {
    /// Makes no context current on this thread (after a `CAOpenGLLayer` drew in its own
    /// context under a renderer that has none, the CPU backend's), so the context can be made
    /// current on another thread later.
    package func releaseCurrent() {
        eglMakeCurrent(display, nil, nil, nil)
    }
}
