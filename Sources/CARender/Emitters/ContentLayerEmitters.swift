import CoreGraphics
import CoreAnimation

/// The emitters of the layers whose content is made for each frame rather than set once
/// (issue 19): `CATiledLayer`'s tiles, `CAVideoLayer`'s frames, `CAOpenGLLayer`'s pictures.
/// One entry in `RenderTreeBuilder.contentEmitters` through `all`, so the builder names them in
/// one place.
final class ContentLayerEmitters {
    let tiled = TiledEmitter()
    let video = VideoEmitter()
    let openGL = OpenGLLayerEmitter()

    /// In compositing order, placed after shapes and before particles.
    var all: [any ContentEmitter] { [tiled, video, openGL] }

    /// Whether the last frame showed content that changes with time alone (a video, an
    /// asynchronous GL layer): the frame must be built anew, never reused.
    var dependsOnTime: Bool { video.drewVideo || openGL.drewAsynchronous }
}

/// What runs a `CAOpenGLLayer`'s hooks in a GL context and reads the picture back: the layer,
/// the framebuffer's pixel width and height, the layer's local time and the frame's media time.
package typealias OpenGLLayerDrawer = (CAOpenGLLayer, Int, Int, CFTimeInterval, CFTimeInterval) -> CGImage?

extension RenderTreeBuilder {
    /// Set by the renderer (QuartzCore), which owns GL: how `CAOpenGLLayer`s are drawn. Without
    /// it a GL layer is not drawn (one warning).
    package var openGLLayerDrawer: OpenGLLayerDrawer? {
        get { contentLayers.openGL.drawer }
        set { contentLayers.openGL.drawer = newValue }
    }
}
