/// Core Graphics' drawing context, as the type `CALayer.draw(in:)` receives. Drawing
/// operations and bitmap contexts arrive with the renderer; the model only needs the type.
/// Creating one from outside the package is not possible yet, so no code can draw into a
/// context that silently does nothing.
public final class CGContext {
    package init() {}
}
