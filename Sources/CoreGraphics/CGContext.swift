/// Core Graphics' drawing context, as the type `CALayer.draw(in:)` receives. Bitmap contexts
/// and drawing operations arrive with the renderer's drawn-content work; until then a context
/// cannot be created from outside the package, so no code can draw into one that silently does
/// nothing. What exists is the context's current path (CGContext+Path.swift), which holds no
/// pixels and behaves as Apple documents it.
public final class CGContext {
    /// The current path, in user space. Apple stores it in device space and maps it back through
    /// the current transformation matrix; the CTM arrives with drawing, and until then it is the
    /// identity, so the two agree.
    package var currentPath = CGMutablePath()

    package init() {}
}
